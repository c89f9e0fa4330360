#pragma once
// What a writer run came to: the writer's exit against what the store holds under the key
// afterwards, read straight from the store (never through the proxy that made the faults).
#include "conformance/gate/run_verdict.hpp"

#include <optional>
#include <string_view>

namespace s3fault::gate {

/// Everything one writer run's judgement rests on.
struct write_evidence {
  bool timed_out = false;
  int exit_code = 0;
  std::string_view input; // the file the writer was given
  /// What the key holds after the run; nullopt: no object under the key.
  std::optional<std::string_view> stored;
  /// What the key held before the run; nullopt: nothing.
  std::optional<std::string_view> previous;
  expectation expect = expectation::must_recover;
  double timeout_seconds = 0;
  exercise exercised;
};

/// STORED: exit 0 and the key holds the input. SILENT_LOSS: exit 0 and the key holds nothing or
/// other bytes. REJECTED: a non-zero exit with the key holding nothing, the previous object or
/// (the writer gave up on an upload that had in fact landed) the input. TORN: a non-zero exit and
/// the key holds bytes that are neither. HUNG: killed at the timeout. Then the same rules as a
/// reader's run (settle_run): a failure fails whether the fault fired or not, a pass counts only
/// when it fired.
judged_run judge_write(const write_evidence& evidence);

} // namespace s3fault::gate
