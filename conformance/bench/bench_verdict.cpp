#include "conformance/bench/bench_verdict.hpp"

#include "conformance/bench/comparison_text.hpp"
#include "conformance/bench/workload.hpp"

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

const std::string& store_name(const bench_report& report, std::size_t store) {
  return report.stores.at(store).name;
}

/// "9 rounds on each side would do at this noise", "no number of rounds would: the control band
/// ±15.0 % is wider than --min-change", "more than 1000 rounds on each side would be needed".
std::string rounds_advice(const comparison& c, double min_change) {
  if (c.rounds_needed) {
    return std::to_string(*c.rounds_needed) + " rounds on each side would do at this noise";
  }
  if (band_hides_min_change(c.noise_band_percent, min_change)) {
    return "no number of rounds would: the control band ±" +
           format_percent(*c.noise_band_percent, false) + " % is wider than --min-change";
  }
  return "more than " + std::to_string(max_advised_rounds) +
         " rounds on each side would be needed at this noise";
}

std::string detectable_text(const comparison& c) {
  return "-" + format_percent(c.detectable_drop_percent, false) + "/+" +
         format_percent(c.detectable_rise_percent, false) + " %";
}

/// What the verdict was decided over, and what decided it.
struct verdict_tally {
  std::size_t figures = 0; // compared figures, judged or not
  std::size_t cells = 0;   // cells with at least one compared figure
  std::size_t absent = 0;  // cells the baseline does not have
  std::vector<std::string> regressions;
  std::vector<std::string> not_judged;
  std::vector<std::string> inconclusive; // one line per figure that could not tell
  /// Of the figures that could not tell: the one with the widest detectable change, and the
  /// most rounds any of them needs (nullopt: some needs more than rounds can give).
  const comparison* widest = nullptr;
  std::string widest_figure;
  std::optional<unsigned> rounds_needed = 0;
};

void tally_inconclusive(verdict_tally& tally, const std::string& what, const comparison& c,
                        double min_change) {
  tally.inconclusive.push_back(what + ": cannot tell: detectable " + detectable_text(c) + " with " +
                               std::to_string(c.baseline_rounds) + "/" +
                               std::to_string(c.current_rounds) + " rounds; " +
                               rounds_advice(c, min_change));
  if (tally.widest == nullptr ||
      c.detectable_rise_percent > tally.widest->detectable_rise_percent) {
    tally.widest = &c;
    tally.widest_figure = what;
  }
  if (!c.rounds_needed) {
    tally.rounds_needed.reset();
  } else if (tally.rounds_needed) {
    tally.rounds_needed = std::max(*tally.rounds_needed, *c.rounds_needed);
  }
}

verdict_tally tally_comparisons(const bench_report& report) {
  verdict_tally tally;
  const double min_change = report.settings->judging.min_change_percent;
  std::set<std::string> cells;
  for_each_comparison(
      report.summaries,
      [&](const cell_summary& summary, figure f, const comparison& c) {
        ++tally.figures;
        cells.insert(describe(summary.measured));
        const std::string what = compared_figure_text(report, summary, f);
        if (c.regression && report.reference == reference_kind::baseline) {
          tally.regressions.push_back(regression_line(summary.measured, f, c));
        } else if (!c.judged) {
          tally.not_judged.push_back(what + ": not judged: " + c.not_judged);
        } else if (!c.conclusive) {
          tally_inconclusive(tally, what, c, min_change);
        }
      },
      [&](const cell_summary&) {
        // A reference store has no comparisons of its own; a cell the baseline lacks is named.
        if (report.reference == reference_kind::baseline) {
          ++tally.absent;
        }
      });
  tally.cells = cells.size();
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

/// "b", "b and c", "b, c and d": the stores compared with the reference.
std::string compared_stores(const bench_report& report) {
  std::string text;
  for (std::size_t i = 1; i < report.stores.size(); ++i) {
    text += (i == 1 ? "" : i + 1 == report.stores.size() ? " and " : ", ") + store_name(report, i);
  }
  return text;
}

/// "compared with the baseline base.json", "of b compared with a".
std::string against_text(const bench_report& report) {
  return report.reference == reference_kind::baseline
             ? "compared with the baseline " + report.baseline_source
             : "of " + compared_stores(report) + " compared with " + store_name(report, 0);
}

std::string min_change_text(const bench_report& report) {
  return format_percent(report.settings->judging.min_change_percent, false) + " % (--min-change)";
}

/// The line under an inconclusive headline: the widest detectable change and the rounds that
/// would bring every figure under --min-change.
std::string inconclusive_summary(const bench_report& report, const verdict_tally& tally) {
  const auto& widest = *tally.widest;
  std::string text = "the smallest change these rounds could detect: " + detectable_text(widest) +
                     " (" + tally.widest_figure + ", " + std::to_string(widest.baseline_rounds) +
                     "/" + std::to_string(widest.current_rounds) + " rounds); ";
  const std::string sides = report.reference == reference_kind::baseline
                                ? "this run and a baseline measured the same way"
                                : "every store";
  if (tally.rounds_needed) {
    text += std::to_string(*tally.rounds_needed) + " rounds on each side (" + sides +
            ") would bring every figure under " +
            format_percent(report.settings->judging.min_change_percent, false) + " % at this noise";
  } else {
    text += "no number of rounds would bring every figure under " +
            format_percent(report.settings->judging.min_change_percent, false) +
            " % at this noise (see the figures below)";
  }
  return text;
}

std::string headline_of(const bench_report& report, bench_verdict::outcome decided,
                        const verdict_tally& tally) {
  using outcome = bench_verdict::outcome;
  const std::string against = against_text(report);
  switch (decided) {
  case outcome::regressed: {
    std::string text =
        "Verdict: " + counted(tally.regressions.size(), "regression", "regressions") +
        " against the baseline " + report.baseline_source + " (" + compared_text(tally) + ")";
    if (!tally.not_judged.empty()) {
      text += "; " + counted(tally.not_judged.size(), "figure", "figures") + " not judged";
    }
    if (!tally.inconclusive.empty()) {
      text += "; " + counted(tally.inconclusive.size(), "figure", "figures") + " could not tell";
    }
    return text;
  }
  case outcome::not_judged:
    return "Verdict: not judged, so the bench does not pass: " +
           std::to_string(tally.not_judged.size()) + " of " + compared_text(tally) + " " + against +
           " could not be judged" +
           (tally.inconclusive.empty()
                ? ""
                : "; " + counted(tally.inconclusive.size(), "figure", "figures") +
                      " could not tell");
  case outcome::inconclusive:
    return std::string("Verdict: inconclusive, ") +
           (report.settings->allow_inconclusive ? "passed with --allow-inconclusive"
                                                : "so the bench does not pass") +
           ": " + std::to_string(tally.inconclusive.size()) + " of " + compared_text(tally) + " " +
           against + " could not tell a change of " + min_change_text(report) + " from none";
  case outcome::passed:
    return "Verdict: no regressions: " + compared_text(tally) + " " + against +
           ", every one able to tell a change of " + min_change_text(report) + " from none";
  case outcome::judged:
    return "Verdict: judged: " + compared_stores(report) + " compared with " +
           store_name(report, 0) + " (the reference) on " + compared_text(tally) +
           ", every one able to tell a change of " + min_change_text(report) + " from none";
  case outcome::none:
    break;
  }
  if (report.reference == reference_kind::baseline) {
    return "Verdict: none: no cell of this bench is in the baseline " + report.baseline_source;
  }
  if (report.stores.size() > 1) {
    return "Verdict: none in a shard: its stores are compared once the shards' reports are "
           "merged (s3fault bench merge)";
  }
  return "Verdict: none, there was no baseline to compare with (--baseline FILE)";
}

bench_verdict::outcome decide(const bench_report& report, const verdict_tally& tally) {
  using outcome = bench_verdict::outcome;
  if (!tally.regressions.empty()) {
    return outcome::regressed;
  }
  if (!tally.not_judged.empty()) {
    return outcome::not_judged;
  }
  if (!tally.inconclusive.empty()) {
    return outcome::inconclusive;
  }
  if (tally.figures == 0) {
    return outcome::none;
  }
  return report.reference == reference_kind::store ? outcome::judged : outcome::passed;
}

/// "4.0x-4.7x" (or "0.21x-0.25x" with `shown` = format_ratio), or one value when both print the
/// same.
std::string ratio_range(double low, double high, std::string (*shown)(double)) {
  const auto a = shown(low);
  const auto b = shown(high);
  return a == b ? a : a + "-" + b;
}

/// The cells of one operation on one store, grouped by what their throughput comparison said.
struct operation_findings {
  std::vector<double> slower, faster, same; // ratios to the reference (of the medians)
  std::size_t cannot_tell = 0;
  std::size_t not_judged = 0;
  std::size_t cells = 0;
};

std::string findings_text(const operation_findings& found, const std::string& reference) {
  const auto of_cells = [&](std::size_t n) {
    return " in " + std::to_string(n) + " of " + counted(found.cells, "cell", "cells");
  };
  std::vector<std::string> parts;
  const auto range = [](const std::vector<double>& v) {
    return std::pair(*std::min_element(v.begin(), v.end()), *std::max_element(v.begin(), v.end()));
  };
  if (!found.slower.empty()) {
    const auto [low, high] = range(found.slower);
    parts.push_back(ratio_range(1 / high, 1 / low, format_factor) + " slower" +
                    of_cells(found.slower.size()) + " (" + ratio_range(low, high, format_ratio) +
                    " of " + reference + ")");
  }
  if (!found.faster.empty()) {
    const auto [low, high] = range(found.faster);
    parts.push_back(ratio_range(low, high, format_factor) + " faster" +
                    of_cells(found.faster.size()) + " (" + ratio_range(low, high, format_ratio) +
                    " of " + reference + ")");
  }
  if (!found.same.empty()) {
    const auto [low, high] = range(found.same);
    parts.push_back("no difference" + of_cells(found.same.size()) + " (" +
                    ratio_range(low, high, format_ratio) + " of " + reference + ")");
  }
  if (found.cannot_tell > 0) {
    parts.push_back("could not tell" + of_cells(found.cannot_tell));
  }
  if (found.not_judged > 0) {
    parts.push_back("not judged" + of_cells(found.not_judged));
  }
  std::string text;
  for (const auto& part : parts) {
    text += (text.empty() ? "" : "; ") + part;
  }
  return text;
}

operation_findings findings_of(const bench_report& report, operation op, std::size_t store) {
  operation_findings found;
  const figure shown = op.workload().throughput_figure();
  for (const auto& summary : report.summaries) {
    if (summary.store != store || summary.measured.op != op) {
      continue;
    }
    const auto& c = summary.versus[static_cast<std::size_t>(shown)];
    if (!c) {
      continue;
    }
    ++found.cells;
    const double ratio = 1 + c->delta_percent / 100;
    if (!c->judged) {
      ++found.not_judged;
    } else if (!c->conclusive) {
      ++found.cannot_tell;
    } else if (!c->flagged) {
      found.same.push_back(ratio);
    } else {
      (c->delta_percent < 0 ? found.slower : found.faster).push_back(ratio);
    }
  }
  return found;
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

std::string compared_figure_text(const bench_report& report, const cell_summary& summary,
                                 figure f) {
  std::string text = describe(summary.measured) + " " + column_title(f);
  if (report.reference == reference_kind::store) {
    text += ", " + store_name(report, summary.store) + " against " + store_name(report, 0);
  }
  return text;
}

std::vector<std::string> store_summary_lines(const bench_report& report) {
  std::vector<std::string> lines;
  if (report.reference != reference_kind::store) {
    return lines;
  }
  for (const auto op : report.settings->operations) {
    for (std::size_t store = 1; store < report.stores.size(); ++store) {
      const auto found = findings_of(report, op, store);
      if (found.cells == 0) {
        continue;
      }
      lines.push_back(std::string(to_string(op)) + " " +
                      column_title(op.workload().throughput_figure()) + ", " +
                      store_name(report, store) + " against " + store_name(report, 0) + ": " +
                      findings_text(found, store_name(report, 0)));
    }
  }
  return lines;
}

std::string_view outcome_name(bench_verdict::outcome decided) {
  using outcome = bench_verdict::outcome;
  switch (decided) {
  case outcome::passed:
    return "passed";
  case outcome::regressed:
    return "regressed";
  case outcome::not_judged:
    return "not judged";
  case outcome::inconclusive:
    return "inconclusive";
  case outcome::judged:
    return "judged";
  case outcome::none:
    break;
  }
  return "none";
}

bench_verdict verdict_of(const bench_report& report) {
  bench_verdict verdict;
  const auto tally = tally_comparisons(report);
  verdict.decided = report.reference == reference_kind::none ? bench_verdict::outcome::none
                                                             : decide(report, tally);
  verdict.headline = headline_of(report, verdict.decided, tally);
  if (report.reference != reference_kind::none && !ran_in_full(report)) {
    verdict.headline += "; judged on the rounds that ran: " + rounds_text(report);
  }
  auto& details = verdict.details;
  details = tally.regressions;
  for (auto& line : store_summary_lines(report)) {
    details.push_back(std::move(line));
  }
  details.insert(details.end(), tally.not_judged.begin(), tally.not_judged.end());
  if (!tally.inconclusive.empty()) {
    details.push_back(inconclusive_summary(report, tally));
    details.insert(details.end(), tally.inconclusive.begin(), tally.inconclusive.end());
  }
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
  if (report.stores.size() > 1) {
    heading += " and store";
  }
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
