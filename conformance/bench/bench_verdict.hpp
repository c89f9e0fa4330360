#pragma once
// What a bench decided, in the words both its reports use: the terminal ends with these lines
// and the HTML page starts with them, so that the two cannot say different things.
//
//   Verdict: 2 regressions against the baseline base.json (2 of 10 figures of 2 cells)
//     get 1MiB c=4 MiB/s: 1189.79 → 19.00 (-98.4 %, slower; p <0.001)
//     get 1MiB c=4 lat p50: 3.039 → 210.943 ms (+6841.2 %, worse; p <0.001)
//
// Also said here: how many rounds ran, which after Ctrl-C is fewer than were asked for.
#include "conformance/bench/bench_runner.hpp"

#include <string>
#include <vector>

namespace s3fault::bench {

struct bench_verdict {
  enum class outcome { no_baseline, passed, regressed, not_judged };
  outcome decided = outcome::no_baseline;
  /// "Verdict: ..." : what was decided, against which baseline, over how many figures.
  std::string headline;
  /// One line per figure that decided it: each regression with the baseline's and this run's
  /// medians and the change, then each figure that could not be judged with the reason.
  std::vector<std::string> details;
};

/// The verdict of `report`: regressions, figures not judged, or none of either; without a
/// baseline, that there is no verdict.
bench_verdict verdict_of(const bench_report& report);

/// One regression as the verdict lists it:
/// "get 1MiB c=4 MiB/s: 1189.79 → 19.00 (-98.4 %, slower; p <0.001)".
std::string regression_line(const cell& c, figure f, const comparison& judged);

/// The rounds that ran: "3 rounds" when all that were asked for ran, else "1 of 3 rounds ran"
/// or, when the cells differ, "2 of 3 rounds ran for 1 cell, 1 of 3 for 3 cells, none for 4
/// cells"; then the runs a stop signal cut short, if any: "2 of 3 rounds ran, 1 run cut short".
std::string rounds_text(const bench_report& report);

/// Whether every cell ran every round asked for, and no run was cut short.
bool ran_in_full(const bench_report& report);

/// The heading of the medians table: "Medians of 3 runs per cell", "Figures of 1 run per cell
/// (1 of 3 rounds ran, interrupted)"; with --control "... (3 rounds x 2 control runs)".
std::string medians_heading(const bench_report& report);

} // namespace s3fault::bench
