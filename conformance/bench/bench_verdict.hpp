#pragma once
// What a bench decided, in the words all its reports use: the terminal ends with these lines,
// the HTML page starts with them, and the JSON and CSV carry them, so that none can say
// something else. One rule for both kinds of comparison (comparison_engine.hpp):
//
//   Verdict: 2 regressions against the baseline base.json (2 of 10 figures of 2 cells)
//     get 1MiB c=4 MiB/s: 1189.79 → 19.00 (-98.4 %, slower; p <0.001)
//   Verdict: inconclusive, so the bench does not pass: 5 of 5 figures of 1 cell compared with
//   the baseline base.json could not tell a change of 10.0 % (--min-change) from none
//     the smallest change these rounds could detect: -45.2/+82.6 % (get 1MiB c=4 lat p99) ...
//   Verdict: judged: b compared with a (the reference) on 10 figures of 2 cells, ...
//     get MiB/s, b against a: 4.0x-4.7x slower in 6 of 6 cells (0.21x-0.25x of a)
//
// "Inconclusive" is never a pass: a figure whose rounds could not have seen a change of
// --min-change, and did not see one, leaves the bench failing unless --allow-inconclusive.
// Also said here: how many rounds ran, which after Ctrl-C is fewer than were asked for.
#include "conformance/bench/bench_runner.hpp"

#include <string>
#include <vector>

namespace s3fault::bench {

struct bench_verdict {
  enum class outcome {
    none,         // nothing compared (no baseline, one store), or no cell in the baseline
    passed,       // baseline: every figure told, none regressed
    regressed,    // baseline: a figure regressed
    not_judged,   // a figure could not be compared at all
    inconclusive, // a figure's rounds could not tell a change of --min-change from none
    judged,       // stores: every figure told (faster, slower or no difference)
  };
  outcome decided = outcome::none;
  /// "Verdict: ..." : what was decided, against what, over how many figures.
  std::string headline;
  /// The lines under it: each regression (baseline), the stores' summary per operation
  /// (stores), then what could not tell and why, then each figure not judged with the reason.
  std::vector<std::string> details;
};

/// The verdict of `report`.
bench_verdict verdict_of(const bench_report& report);
/// The outcome as the files spell it: "none", "passed", "regressed", "not judged",
/// "inconclusive", "judged".
std::string_view outcome_name(bench_verdict::outcome decided);

/// One regression as the verdict lists it:
/// "get 1MiB c=4 MiB/s: 1189.79 → 19.00 (-98.4 %, slower; p <0.001)".
std::string regression_line(const cell& c, figure f, const comparison& judged);

/// Per operation and store against the reference, over its cells, the throughput figure's
/// ratios: "get MiB/s, b against a: 4.0x-4.7x slower in 6 of 6 cells (0.21x-0.25x of a)";
/// cells that could not tell, or were not judged, counted in the same line.
std::vector<std::string> store_summary_lines(const bench_report& report);

/// What a comparison is of, in a verdict line: "get 1MiB c=4 MiB/s", with stores
/// "get 1MiB c=4 MiB/s, b against a".
std::string compared_figure_text(const bench_report& report, const cell_summary& summary, figure f);

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
