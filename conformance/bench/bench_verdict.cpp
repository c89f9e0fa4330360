#include "conformance/bench/bench_verdict.hpp"

#include "conformance/bench/comparison_text.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

namespace s3fault::bench {
namespace {

/// "1 regression", "3 regressions".
std::string counted(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// Latency and TTFB titles ("lat p50") carry no unit; throughput titles ("MiB/s") do.
std::string unit_after(figure f) {
  const std::string_view key = info(f).key;
  return key.starts_with("latency_") || key.starts_with("ttfb_") ? " ms" : "";
}

/// What the verdict was decided over, and what decided it.
struct verdict_tally {
  std::size_t figures = 0; // compared figures, judged or not
  std::size_t cells = 0;   // cells with at least one compared figure
  std::size_t absent = 0;  // cells the baseline does not have
  std::vector<std::string> regressions;
  std::vector<std::string> not_judged;
};

verdict_tally tally_comparisons(const bench_report& report) {
  verdict_tally tally;
  std::set<const cell_summary*> compared;
  for_each_comparison(
      report.summaries,
      [&](const cell_summary& summary, figure f, const comparison& c) {
        ++tally.figures;
        compared.insert(&summary);
        if (c.regression) {
          tally.regressions.push_back(regression_line(summary.measured, f, c));
        } else if (!c.judged) {
          tally.not_judged.push_back(describe(summary.measured) + " " + column_title(f) +
                                     ": not judged: " + c.not_judged);
        }
      },
      [&](const cell_summary&) { ++tally.absent; });
  tally.cells = compared.size();
  return tally;
}

/// "10 figures of 2 cells", and the cells the baseline lacks when there are any.
std::string compared_text(const verdict_tally& tally) {
  std::string text =
      counted(tally.figures, "figure", "figures") + " of " + counted(tally.cells, "cell", "cells");
  if (tally.absent > 0) {
    text += "; " + counted(tally.absent, "cell", "cells") + " not in the baseline";
  }
  return text;
}

std::string headline_of(bench_verdict::outcome decided, const verdict_tally& tally,
                        const std::string& source) {
  using outcome = bench_verdict::outcome;
  switch (decided) {
  case outcome::regressed: {
    std::string text =
        "Verdict: " + counted(tally.regressions.size(), "regression", "regressions") +
        " against the baseline " + source + " (" + compared_text(tally) + ")";
    if (!tally.not_judged.empty()) {
      text += "; " + counted(tally.not_judged.size(), "figure", "figures") + " not judged";
    }
    return text;
  }
  case outcome::not_judged:
    return "Verdict: not judged, so the bench does not pass: " +
           std::to_string(tally.not_judged.size()) + " of " + compared_text(tally) +
           " compared with the baseline " + source + " could not be judged";
  case outcome::passed:
    return "Verdict: no regressions: " + compared_text(tally) + " compared with the baseline " +
           source;
  case outcome::no_baseline:
    break;
  }
  return "Verdict: none: no cell of this bench is in the baseline " + source;
}

/// Per cell, how many of its rounds ran (a round counts when any run of it did, a run cut
/// short by Ctrl-C included: its figures are in the medians).
std::vector<unsigned> rounds_per_cell(const bench_report& report) {
  std::vector<std::set<unsigned>> rounds(report.cells.size());
  for (const auto& run : report.runs) {
    if (run.cell_index < rounds.size()) {
      rounds[run.cell_index].insert(run.round);
    }
  }
  std::vector<unsigned> counts;
  for (const auto& seen : rounds) {
    counts.push_back(static_cast<unsigned>(seen.size()));
  }
  return counts;
}

bool every_round_ran(const bench_report& report) {
  const auto counts = rounds_per_cell(report);
  return std::all_of(counts.begin(), counts.end(),
                     [&](unsigned n) { return n >= report.settings->rounds; });
}

std::size_t runs_cut_short(const bench_report& report) {
  return static_cast<std::size_t>(std::count_if(
      report.runs.begin(), report.runs.end(), [](const run_result& run) { return run.cut_short; }));
}

/// "3 rounds", "1 of 3 rounds ran", "2 of 3 rounds ran for 1 cell, none for 1 cell".
std::string rounds_that_ran(const bench_report& report) {
  const unsigned asked = report.settings->rounds;
  if (every_round_ran(report)) {
    return counted(asked, "round", "rounds");
  }
  // Cells by the rounds they ran, most first.
  std::map<unsigned, std::size_t, std::greater<>> cells_with;
  for (const unsigned n : rounds_per_cell(report)) {
    ++cells_with[n];
  }
  const std::string of_asked = " of " + std::to_string(asked);
  if (cells_with.size() == 1) {
    return std::to_string(cells_with.begin()->first) + of_asked + " rounds ran";
  }
  std::string text;
  for (const auto& [ran, cells] : cells_with) {
    if (text.empty()) {
      text = std::to_string(ran) + of_asked + " rounds ran for " + counted(cells, "cell", "cells");
    } else {
      text += ", " + (ran == 0 ? std::string("none") : std::to_string(ran) + of_asked) + " for " +
              counted(cells, "cell", "cells");
    }
  }
  return text;
}

} // namespace

std::string regression_line(const cell& c, figure f, const comparison& judged) {
  return describe(c) + " " + column_title(f) + ": " + format_figure(f, judged.baseline) + " → " +
         format_figure(f, judged.current) + unit_after(f) + " (" +
         format_percent(judged.delta_percent, true) + " %, " + std::string(change_word(f, judged)) +
         "; p " + p_value_text(judged.p_value) + ")";
}

bench_verdict verdict_of(const bench_report& report) {
  bench_verdict verdict;
  if (report.baseline_source.empty()) {
    verdict.headline = "Verdict: none, there was no baseline to compare with (--baseline FILE)";
    return verdict;
  }
  const auto tally = tally_comparisons(report);
  using outcome = bench_verdict::outcome;
  verdict.decided = !tally.regressions.empty()  ? outcome::regressed
                    : !tally.not_judged.empty() ? outcome::not_judged
                    : tally.figures > 0         ? outcome::passed
                                                : outcome::no_baseline;
  verdict.headline = headline_of(verdict.decided, tally, report.baseline_source);
  if (!ran_in_full(report)) {
    verdict.headline += "; judged on the rounds that ran: " + rounds_text(report);
  }
  verdict.details = tally.regressions;
  verdict.details.insert(verdict.details.end(), tally.not_judged.begin(), tally.not_judged.end());
  return verdict;
}

bool ran_in_full(const bench_report& report) {
  return every_round_ran(report) && runs_cut_short(report) == 0;
}

std::string rounds_text(const bench_report& report) {
  const auto cut = runs_cut_short(report);
  return rounds_that_ran(report) +
         (cut > 0 ? ", " + counted(cut, "run", "runs") + " cut short" : "");
}

std::string medians_heading(const bench_report& report) {
  const auto& settings = *report.settings;
  std::size_t fewest = 0;
  std::size_t most = 0;
  for (std::size_t i = 0; i < report.summaries.size(); ++i) {
    const std::size_t runs = report.summaries[i].runs;
    fewest = i == 0 ? runs : std::min(fewest, runs);
    most = std::max(most, runs);
  }
  std::string heading = most <= 1 ? "Figures of " : "Medians of ";
  heading += fewest == most ? std::to_string(most)
                            : std::to_string(fewest) + " to " + std::to_string(most);
  heading += most == 1 ? " run per cell" : " runs per cell";
  if (ran_in_full(report)) {
    if (settings.control) {
      heading += " (" + counted(settings.rounds, "round", "rounds") + " x 2 control runs)";
    }
    return heading;
  }
  return heading + " (" + rounds_text(report) + (settings.control ? ", with control runs" : "") +
         (report.interrupted ? ", interrupted" : "") + ")";
}

} // namespace s3fault::bench
