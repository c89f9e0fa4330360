#pragma once
// What a reader run came to: the reader's exit and output against the object's bytes, judged by
// the scenario's expectation, and whether the run may count at all (its fault fired, its
// baseline was read correctly).
#include "conformance/gate/scenarios.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::gate {

/// Readers: CORRECT: exit 0 and the right bytes. SILENT_CORRUPTION: exit 0 with wrong bytes.
/// Writers (write_verdict.hpp): STORED: exit 0 and the store holds the input. SILENT_LOSS: exit 0
/// and the key is missing or holds other bytes. TORN: a non-zero exit, and the key holds bytes
/// that are neither the input nor the object it held before.
/// Both: REJECTED: a non-zero exit (it failed loudly). HUNG: still running at the timeout.
/// NOT_EXERCISED: it would have passed, but the scenario's fault never reached it.
/// NOT_JUDGED: not run, because it did not handle this shape without faults.
enum class verdict {
  correct,
  rejected,
  silent_corruption,
  hung,
  not_exercised,
  not_judged,
  stored,
  silent_loss,
  torn,
};
std::string_view to_string(verdict value);
/// The verdict to_string names ("SILENT_CORRUPTION"), or nullopt.
std::optional<verdict> verdict_from_string(std::string_view text);

/// How a run counts in the totals and the exit status. Only `passed` is a pass.
enum class run_outcome { passed, failed, not_exercised, not_judged };
std::string_view to_string(run_outcome value);
/// The outcome to_string names ("not exercised"), or nullopt.
std::optional<run_outcome> outcome_from_string(std::string_view text);

struct judged_run {
  verdict result = verdict::correct;
  run_outcome outcome = run_outcome::passed;
  /// The verdict the reader's exit and bytes earned, before the NOT_EXERCISED rule (the same as
  /// `result` otherwise).
  verdict observed = verdict::correct;
  std::string why; // one line: what made the verdict
  std::uint64_t expected_bytes = 0;
  std::uint64_t actual_bytes = 0;
  std::optional<std::uint64_t> first_difference; // SILENT_CORRUPTION: the first wrong offset

  bool passed() const { return outcome == run_outcome::passed; }
};

/// The offset of the first difference between `actual` and `expected` (the shorter length when
/// one is a prefix of the other), or nullopt when they are equal.
std::optional<std::uint64_t> first_difference(std::string_view actual, std::string_view expected);

/// Whether a verdict is acceptable under an expectation (SILENT_CORRUPTION, SILENT_LOSS, TORN and
/// HUNG never are).
bool verdict_passes(verdict result, expectation expect);
/// CORRECT or STORED: what a baseline must be for the other runs of its shape to be judged.
bool verdict_succeeded(verdict result);

/// Whose run it is: the words of its messages ("the reader ... read", "the writer ... wrote").
enum class run_role { reader, writer };
/// "reader" or "writer".
std::string_view role_name(run_role role);

/// Whether a run met what its scenario is there for, so that a pass may count: its fault touched
/// the object (traffic_counter.hpp, fault_touches_object), or the condition its action needs came
/// about (a read after replaced-between-reads replaced the object).
struct exercise {
  bool needed = false;  // false: the scenario is judged on the verdict alone (baseline)
  bool happened = true; // ... and when needed: whether it did
  std::string why_not;  // when it did not: what happened instead, one clause
};

/// Turns what a run's exit and bytes earned (`run.result`, `run.observed`) into its outcome under
/// `expect`: a failure fails whether the run was exercised or not, and a pass counts only when
/// it was.
judged_run settle_run(judged_run run, expectation expect, const exercise& exercised);

/// Everything one run's judgement rests on.
struct run_evidence {
  bool timed_out = false;
  int exit_code = 0;
  std::string_view output;
  std::string_view expected;
  std::string_view also_correct; // the replacement object of replaced-between-reads, or empty
  expectation expect = expectation::must_recover;
  double timeout_seconds = 0;
  exercise exercised;
};

/// Judges one run. A run that fails is a failure whether its fault fired or not (wrong bytes
/// without a fault are wrong too); a run that would pass counts only when it was exercised.
judged_run judge_run(const run_evidence& evidence);

/// A run that was not made because the baseline of its shape was `baseline`.
judged_run not_judged(verdict baseline, std::string_view shape, run_role role = run_role::reader);

} // namespace s3fault::gate
