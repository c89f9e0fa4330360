#include "conformance/bench/bench_summary.hpp"

#include "text/text.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace s3fault::bench {
namespace {

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

} // namespace

bool same_cell(const cell& a, const cell& b) {
  return a.op == b.op && a.size == b.size && a.concurrency == b.concurrency && a.stored == b.stored;
}

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

std::vector<std::string> baseline_stores(const baseline& earlier) {
  std::vector<std::string> names;
  for (const auto& c : earlier.cells) {
    if (std::find(names.begin(), names.end(), c.store) == names.end()) {
      names.push_back(c.store);
    }
  }
  return names;
}

bool choose_baseline_store(baseline& earlier, const std::string& name, std::string& error) {
  const auto names = baseline_stores(earlier);
  if (name.empty()) {
    if (names.size() > 1) {
      error = earlier.source + " holds the cells of " + std::to_string(names.size()) + " stores (" +
              text::join(names, ", ") + "): name the one to compare with, e.g. " + "--baseline " +
              earlier.source + ":" + names.front();
      return false;
    }
    return true;
  }
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    error = earlier.source + " has no store '" + name + "' (" +
            (names.size() == 1 && names.front().empty()
                 ? std::string("it is a bench of one unnamed store: leave :") + name + " out"
                 : "its stores: " + text::join(names, ", ")) +
            ")";
    return false;
  }
  std::erase_if(earlier.cells, [&](const baseline_cell& c) { return c.store != name; });
  earlier.source += ":" + name;
  return true;
}

std::vector<cell_summary> summarize_cells(const std::vector<cell>& cells, std::size_t stores,
                                          const std::vector<run_result>& runs) {
  std::vector<cell_summary> summaries;
  for (std::size_t index = 0; index < cells.size(); ++index) {
    for (std::size_t store = 0; store < std::max<std::size_t>(1, stores); ++store) {
      cell_summary summary;
      summary.measured = cells[index];
      summary.store = store;
      std::vector<const run_result*> of_cell;
      for (const auto& run : runs) {
        if (run.cell_index != index || run.store != store) {
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
      summaries.push_back(std::move(summary));
    }
  }
  return summaries;
}

std::string_view change_word(figure f, const comparison& c) {
  if (!c.judged) {
    return "not judged";
  }
  if (!c.conclusive) {
    return "cannot tell";
  }
  if (!c.flagged) {
    return "no difference";
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

comparison_counts count_comparisons(const std::vector<cell_summary>& cells) {
  comparison_counts counts;
  for (const auto& summary : cells) {
    for (const auto& c : summary.versus) {
      if (!c) {
        continue;
      }
      ++counts.compared;
      counts.regressions += c->regression ? 1 : 0;
      counts.differences += c->flagged ? 1 : 0;
      counts.not_judged += c->judged ? 0 : 1;
      counts.inconclusive += c->judged && !c->conclusive ? 1 : 0;
    }
  }
  return counts;
}

} // namespace s3fault::bench
