#include "conformance/bench/bench_summary.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace s3fault::bench {
namespace {

std::optional<double> wider(std::optional<double> a, std::optional<double> b) {
  if (!a) {
    return b;
  }
  if (!b) {
    return a;
  }
  return std::max(*a, *b);
}

/// One value per round: the geometric mean of the round's legs (a control pair), or the one leg.
std::vector<double> per_round(const std::map<unsigned, std::vector<double>>& legs_by_round,
                              int decimals) {
  std::vector<double> rounds;
  for (const auto& [round, legs] : legs_by_round) {
    const bool positive = std::all_of(legs.begin(), legs.end(), [](double v) { return v > 0; });
    double value = 0;
    if (positive) {
      double logs = 0;
      for (const double v : legs) {
        logs += std::log(v);
      }
      value = std::exp(logs / static_cast<double>(legs.size()));
    }
    rounds.push_back(round_to(value, decimals));
  }
  return rounds;
}

void summarize_figures(cell_summary& summary, const std::vector<const run_result*>& runs) {
  for (std::size_t f = 0; f < figure_count; ++f) {
    std::vector<double> values;
    std::vector<double> first_legs;
    std::vector<double> second_legs;
    std::map<unsigned, std::vector<double>> by_round;
    for (const auto* run : runs) {
      if (!run->values[f]) {
        continue;
      }
      values.push_back(*run->values[f]);
      (run->leg == 0 ? first_legs : second_legs).push_back(*run->values[f]);
      by_round[run->round].push_back(*run->values[f]);
    }
    if (values.empty()) {
      continue;
    }
    const int decimals = info(figure_at(f)).decimals;
    auto s = summarize(values);
    s.median = round_to(s.median, decimals);
    summary.figures[f] = s;
    summary.rounds[f] = per_round(by_round, decimals);
    if (!second_legs.empty()) {
      // Pairs in run order: round r's first leg with round r's second leg.
      if (const auto band = noise_band_percent(first_legs, second_legs)) {
        summary.noise_percent[f] = round_to(*band, 1);
      }
    }
  }
}

void compare_with(cell_summary& summary, const baseline_cell& before, const judging_rules& rules) {
  for (const auto which : compared_figures()) {
    const auto f = static_cast<std::size_t>(which);
    if (before.rounds[f].empty() && summary.rounds[f].empty()) {
      continue; // not a figure of this operation (delete has no MiB/s), or failed on both sides
    }
    judging_rules figure_rules = rules;
    figure_rules.noise_band = wider(summary.noise_percent[f], before.noise_percent[f]);
    summary.versus_baseline[f] =
        compare_rounds(before.rounds[f], summary.rounds[f], info(which).direction, figure_rules);
  }
}

} // namespace

bool same_cell(const cell& a, const baseline_cell& b) {
  return a.op == b.op && a.size == b.size && a.concurrency == b.concurrency && a.stored == b.stored;
}

const baseline_cell* find_in(const baseline* earlier, const cell& c) {
  if (earlier == nullptr) {
    return nullptr;
  }
  for (const auto& candidate : earlier->cells) {
    if (same_cell(c, candidate)) {
      return &candidate;
    }
  }
  return nullptr;
}

std::vector<cell_summary> summarize_cells(const std::vector<cell>& cells,
                                          const std::vector<run_result>& runs,
                                          const baseline* earlier, const judging_rules& rules) {
  std::vector<cell_summary> summaries;
  for (std::size_t index = 0; index < cells.size(); ++index) {
    cell_summary summary;
    summary.measured = cells[index];
    std::vector<const run_result*> of_cell;
    for (const auto& run : runs) {
      if (run.cell_index != index) {
        continue;
      }
      of_cell.push_back(&run);
      ++summary.runs;
      if (summary.first_error.empty()) {
        summary.first_error = run.first_error;
      }
      if (summary.store_error.empty()) {
        summary.store_error = run.store_error;
      }
      if (summary.note.empty()) {
        summary.note = run.note;
      }
    }
    summarize_figures(summary, of_cell);
    if (const baseline_cell* before = find_in(earlier, summary.measured)) {
      compare_with(summary, *before, rules);
    }
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

std::string_view change_word(figure f, const comparison& c) {
  if (!c.judged) {
    return "not judged";
  }
  if (!c.flagged) {
    return "";
  }
  if (info(f).direction == better::higher) {
    return c.regression ? "slower" : "faster";
  }
  return c.regression ? "worse" : "better";
}

bool any_store_figures(const std::vector<cell_summary>& cells) {
  for (const auto& summary : cells) {
    if (summary.figures[static_cast<std::size_t>(figure::store_rss_max_mib)]) {
      return true;
    }
  }
  return false;
}

bool any_noise(const std::vector<cell_summary>& cells) {
  for (const auto& summary : cells) {
    for (const auto& noise : summary.noise_percent) {
      if (noise) {
        return true;
      }
    }
  }
  return false;
}

std::vector<std::string> regressions(const std::vector<cell_summary>& cells) {
  std::vector<std::string> found;
  for (const auto& summary : cells) {
    for (std::size_t f = 0; f < figure_count; ++f) {
      const auto& c = summary.versus_baseline[f];
      if (c && c->regression) {
        found.push_back(describe(summary.measured) + " " + column_title(figure_at(f)) + " " +
                        format_percent(c->delta_percent, true) + "%");
      }
    }
  }
  return found;
}

std::vector<std::string> unjudged(const std::vector<cell_summary>& cells) {
  std::vector<std::string> found;
  for (const auto& summary : cells) {
    for (std::size_t f = 0; f < figure_count; ++f) {
      const auto& c = summary.versus_baseline[f];
      if (c && !c->judged) {
        found.push_back(describe(summary.measured) + " " + column_title(figure_at(f)) + ": " +
                        c->not_judged);
      }
    }
  }
  return found;
}

} // namespace s3fault::bench
