#include "conformance/bench/bench_summary.hpp"

#include <algorithm>

namespace s3fault::bench {
namespace {

bool same_cell(const cell& a, const baseline_cell& b) {
  return a.op == b.op && a.size == b.size && a.concurrency == b.concurrency;
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

std::optional<double> round_spread_percent(const std::optional<spread>& s) {
  if (!s || s->samples < 2 || s->median <= 0) {
    return std::nullopt;
  }
  return (s->max - s->min) / s->median * 100.0;
}

std::optional<double> wider(std::optional<double> a, std::optional<double> b) {
  if (!a) {
    return b;
  }
  if (!b) {
    return a;
  }
  return std::max(*a, *b);
}

} // namespace

std::optional<double> comparison_noise(const cell_summary& current, const baseline_cell* earlier,
                                       figure f) {
  // Control pairs see the noise between back-to-back runs; the rounds' spread also sees drift
  // over the whole bench. Either may be the larger, so the wider counts.
  const auto i = static_cast<std::size_t>(f);
  std::optional<double> noise =
      wider(current.noise_percent[i], round_spread_percent(current.figures[i]));
  if (earlier != nullptr) {
    noise =
        wider(noise, wider(earlier->noise_percent[i], round_spread_percent(earlier->figures[i])));
  }
  return noise;
}

std::vector<cell_summary> summarize_cells(const std::vector<cell>& cells,
                                          const std::vector<run_result>& runs,
                                          const baseline* earlier, double min_change_percent) {
  std::vector<cell_summary> summaries;
  for (std::size_t index = 0; index < cells.size(); ++index) {
    cell_summary summary;
    summary.measured = cells[index];
    std::array<std::vector<double>, figure_count> values;
    std::array<std::vector<double>, figure_count> first_legs;
    std::array<std::vector<double>, figure_count> second_legs;
    for (const auto& run : runs) {
      if (run.cell_index != index) {
        continue;
      }
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
      for (std::size_t f = 0; f < figure_count; ++f) {
        if (!run.values[f]) {
          continue;
        }
        values[f].push_back(*run.values[f]);
        (run.leg == 0 ? first_legs : second_legs)[f].push_back(*run.values[f]);
      }
    }
    for (std::size_t f = 0; f < figure_count; ++f) {
      if (values[f].empty()) {
        continue;
      }
      auto s = summarize(values[f]);
      const int decimals = info(figure_at(f)).decimals;
      s.median = round_to(s.median, decimals);
      summary.figures[f] = s;
      if (!second_legs[f].empty()) {
        // Pairs in run order: round r's first leg with round r's second leg.
        if (const auto band = noise_band_percent(first_legs[f], second_legs[f])) {
          summary.noise_percent[f] = round_to(*band, 1);
        }
      }
    }
    const baseline_cell* before = find_in(earlier, summary.measured);
    if (before != nullptr) {
      for (std::size_t f = 0; f < figure_count; ++f) {
        const auto which = figure_at(f);
        if (!info(which).compared || !summary.figures[f] || !before->figures[f]) {
          continue;
        }
        auto result = compare_with_baseline(
            before->figures[f]->median, summary.figures[f]->median, info(which).direction,
            comparison_noise(summary, before, which), min_change_percent);
        result.delta_percent = round_to(result.delta_percent, 1);
        result.threshold_percent = round_to(result.threshold_percent, 1);
        // Decided on the rounded figures, so that what is printed explains the flag.
        result.flagged = std::abs(result.delta_percent) > result.threshold_percent;
        const bool worse = info(which).direction == better::higher
                               ? result.current < result.baseline
                               : result.current > result.baseline;
        result.regression = result.flagged && worse;
        summary.versus_baseline[f] = result;
      }
    }
    summaries.push_back(std::move(summary));
  }
  return summaries;
}

std::string_view change_word(figure f, const comparison& c) {
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

} // namespace s3fault::bench
