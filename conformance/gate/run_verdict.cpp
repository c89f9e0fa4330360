#include "conformance/gate/run_verdict.hpp"

#include "conformance/gate/enum_names.hpp"

#include <algorithm>

namespace s3fault::gate {
std::string_view role_name(run_role role) {
  return role == run_role::writer ? "writer" : "reader";
}

namespace {

/// The verdict the reader's exit and bytes earn, with its one-line reason.
judged_run judge_bytes(const run_evidence& e) {
  judged_run run;
  run.expected_bytes = e.expected.size();
  run.actual_bytes = e.output.size();
  if (e.timed_out) {
    run.result = verdict::hung;
    run.why = "still running after " + std::to_string(static_cast<long>(e.timeout_seconds)) +
              " s; its process group was killed";
  } else if (e.exit_code != 0) {
    run.result = verdict::rejected;
    run.why = "exit " + std::to_string(e.exit_code);
  } else if (e.output == e.expected || (!e.also_correct.empty() && e.output == e.also_correct)) {
    run.result = verdict::correct;
    run.why = e.output == e.expected ? "exit 0, every byte right"
                                     : "exit 0, every byte of the replacement object";
  } else {
    run.result = verdict::silent_corruption;
    run.first_difference = first_difference(e.output, e.expected);
    run.why = "exit 0 with " + std::to_string(e.output.size()) + " of " +
              std::to_string(e.expected.size()) + " bytes";
    if (run.first_difference) {
      run.why += "; first difference at offset " + std::to_string(*run.first_difference);
    }
  }
  run.observed = run.result;
  return run;
}

} // namespace

std::string_view to_string(verdict value) {
  switch (value) {
  case verdict::correct:
    return "CORRECT";
  case verdict::rejected:
    return "REJECTED";
  case verdict::silent_corruption:
    return "SILENT_CORRUPTION";
  case verdict::hung:
    return "HUNG";
  case verdict::not_exercised:
    return "NOT_EXERCISED";
  case verdict::not_judged:
    return "NOT_JUDGED";
  case verdict::stored:
    return "STORED";
  case verdict::silent_loss:
    return "SILENT_LOSS";
  case verdict::torn:
    return "TORN";
  }
  return "?";
}

std::optional<verdict> verdict_from_string(std::string_view text) {
  return enum_named(text,
                    std::array{verdict::correct, verdict::rejected, verdict::silent_corruption,
                               verdict::hung, verdict::not_exercised, verdict::not_judged,
                               verdict::stored, verdict::silent_loss, verdict::torn});
}

std::string_view to_string(run_outcome value) {
  switch (value) {
  case run_outcome::passed:
    return "passed";
  case run_outcome::failed:
    return "failed";
  case run_outcome::not_exercised:
    return "not exercised";
  case run_outcome::not_judged:
    return "not judged";
  }
  return "?";
}

std::optional<std::uint64_t> first_difference(std::string_view actual, std::string_view expected) {
  const auto common = std::min(actual.size(), expected.size());
  const auto [at, _] = std::mismatch(actual.begin(), actual.begin() + common, expected.begin());
  const auto offset = static_cast<std::uint64_t>(at - actual.begin());
  if (offset < common || actual.size() != expected.size()) {
    return offset;
  }
  return std::nullopt;
}

std::optional<run_outcome> outcome_from_string(std::string_view text) {
  return enum_named(text, std::array{run_outcome::passed, run_outcome::failed,
                                     run_outcome::not_exercised, run_outcome::not_judged});
}

bool verdict_passes(verdict result, expectation expect) {
  switch (result) {
  case verdict::correct:
  case verdict::stored:
    return true;
  case verdict::rejected:
    return expect != expectation::must_recover;
  case verdict::silent_corruption:
  case verdict::silent_loss:
  case verdict::torn:
  case verdict::hung:
  case verdict::not_exercised:
  case verdict::not_judged:
    return false;
  }
  return false;
}

bool verdict_succeeded(verdict result) {
  return result == verdict::correct || result == verdict::stored;
}

judged_run settle_run(judged_run run, expectation expect, const exercise& exercised) {
  if (!verdict_passes(run.result, expect)) {
    run.outcome = run_outcome::failed;
    return run;
  }
  if (exercised.needed && !exercised.happened) {
    run.result = verdict::not_exercised;
    run.outcome = run_outcome::not_exercised;
    run.why = exercised.why_not + ", so " + std::string(to_string(run.observed)) + " says nothing";
    return run;
  }
  run.outcome = run_outcome::passed;
  return run;
}

judged_run judge_run(const run_evidence& evidence) {
  return settle_run(judge_bytes(evidence), evidence.expect, evidence.exercised);
}

judged_run not_judged(verdict baseline, std::string_view shape, run_role role) {
  judged_run run;
  run.result = verdict::not_judged;
  run.observed = verdict::not_judged;
  run.outcome = run_outcome::not_judged;
  run.why = "not run: the baseline of " + std::string(shape) + " was " +
            std::string(to_string(baseline)) + ", so the " + std::string(role_name(role)) +
            " cannot " + (role == run_role::writer ? "write" : "read") +
            " this object even without a fault";
  return run;
}

} // namespace s3fault::gate
