#include "conformance/gate/run_verdict.hpp"

#include <algorithm>

namespace s3fault::gate {

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

bool verdict_passes(verdict result, expectation expect) {
  switch (result) {
  case verdict::correct:
    return true;
  case verdict::rejected:
    return expect != expectation::must_recover;
  case verdict::silent_corruption:
  case verdict::hung:
    return false;
  }
  return false;
}

judged_run judge_run(bool timed_out, int exit_code, std::string_view output,
                     std::string_view expected, std::string_view also_correct, expectation expect,
                     double timeout_seconds) {
  judged_run run;
  run.expected_bytes = expected.size();
  run.actual_bytes = output.size();
  if (timed_out) {
    run.result = verdict::hung;
    run.why = "still running after " + std::to_string(static_cast<long>(timeout_seconds)) +
              " s; its process group was killed";
  } else if (exit_code != 0) {
    run.result = verdict::rejected;
    run.why = "exit " + std::to_string(exit_code);
  } else if (output == expected || (!also_correct.empty() && output == also_correct &&
                                    output.size() == expected.size())) {
    run.result = verdict::correct;
    run.why = output == expected ? "exit 0, every byte right"
                                 : "exit 0, every byte of the replacement object";
  } else {
    run.result = verdict::silent_corruption;
    run.first_difference = first_difference(output, expected);
    run.why = "exit 0 with " + std::to_string(output.size()) + " of " +
              std::to_string(expected.size()) + " bytes";
    if (run.first_difference) {
      run.why += "; first difference at offset " + std::to_string(*run.first_difference);
    }
  }
  run.passed = verdict_passes(run.result, expect);
  return run;
}

} // namespace s3fault::gate
