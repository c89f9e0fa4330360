#pragma once
// What a reader run came to: the reader's exit and output against the object's bytes, judged by
// the scenario's expectation.
#include "conformance/gate/scenarios.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::gate {

/// CORRECT: exit 0 and the right bytes. REJECTED: a non-zero exit (the reader failed loudly).
/// SILENT_CORRUPTION: exit 0 with wrong bytes. HUNG: still running at the timeout.
enum class verdict { correct, rejected, silent_corruption, hung };
std::string_view to_string(verdict value);

struct judged_run {
  verdict result = verdict::correct;
  bool passed = true;
  std::string why; // one line: what made the verdict
  std::uint64_t expected_bytes = 0;
  std::uint64_t actual_bytes = 0;
  std::optional<std::uint64_t> first_difference; // SILENT_CORRUPTION: the first wrong offset
};

/// The offset of the first difference between `actual` and `expected` (the shorter length when
/// one is a prefix of the other), or nullopt when they are equal.
std::optional<std::uint64_t> first_difference(std::string_view actual, std::string_view expected);

/// Whether a verdict is acceptable under an expectation (SILENT_CORRUPTION and HUNG never are).
bool verdict_passes(verdict result, expectation expect);

/// Judges one run. `also_correct` is a second acceptable content (the replacement object of
/// replaced-between-reads), empty when there is none.
judged_run judge_run(bool timed_out, int exit_code, std::string_view output,
                     std::string_view expected, std::string_view also_correct, expectation expect,
                     double timeout_seconds);

} // namespace s3fault::gate
