#include "conformance/bench/comparison_engine.hpp"

#include <algorithm>

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

/// Each compared figure of `summary` against the reference's rounds and noise bands.
void judge(cell_summary& summary, const round_values& reference_rounds,
           const noise_values& reference_noise, const judging_rules& rules,
           const comparison_sides& sides) {
  for (const auto which : compared_figures()) {
    const auto f = static_cast<std::size_t>(which);
    if (reference_rounds[f].empty() && summary.rounds[f].empty()) {
      continue; // not a figure of this operation (delete has no MiB/s), or failed on both sides
    }
    judging_rules figure_rules = rules;
    figure_rules.noise_band = wider(summary.noise_percent[f], reference_noise[f]);
    summary.versus[f] = compare_rounds(reference_rounds[f], summary.rounds[f],
                                       info(which).direction, figure_rules, sides);
  }
}

/// The first store's summary of `summary`'s cell.
const cell_summary* first_store_of(const std::vector<cell_summary>& summaries,
                                   const cell_summary& summary) {
  for (const auto& candidate : summaries) {
    if (candidate.store == 0 && same_cell(candidate.measured, summary.measured)) {
      return &candidate;
    }
  }
  return nullptr;
}

} // namespace

void compare_with_baseline(std::vector<cell_summary>& summaries, const baseline& earlier,
                           const judging_rules& rules) {
  for (auto& summary : summaries) {
    if (const baseline_cell* before = find_in(&earlier, summary.measured)) {
      judge(summary, before->rounds, before->noise_percent, rules, {});
    }
  }
}

void compare_with_first_store(std::vector<cell_summary>& summaries,
                              const std::vector<std::string>& names, const judging_rules& rules) {
  for (auto& summary : summaries) {
    if (summary.store == 0) {
      continue;
    }
    if (const cell_summary* reference = first_store_of(summaries, summary)) {
      comparison_sides sides;
      sides.reference = names.at(0);
      sides.current = names.at(summary.store);
      judge(summary, reference->rounds, reference->noise_percent, rules, sides);
    }
  }
}

} // namespace s3fault::bench
