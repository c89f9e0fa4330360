#pragma once
// One baseline comparison as the columns the terminal and the HTML page show, so both say the
// same thing with the same digits.
#include "conformance/bench/bench_summary.hpp"

#include <string>
#include <vector>

namespace s3fault::bench {

/// "baseline", "now", "delta %", "rounds", "ratio 99.0 % interval", "p", "detectable %", "change"
std::vector<std::string> comparison_titles(const judging_rules& rules);
/// The columns under comparison_titles: "-" where a figure could not be judged, and the change
/// as "slower", "worse", ..., "cannot tell" or "not judged: WHY".
std::vector<std::string> comparison_columns(figure f, const comparison& c);
/// "0.034", "<0.001"
std::string p_value_text(double p);

/// The rows of a comparison table: `row(summary, figure, comparison)` for every compared figure
/// a cell has a comparison for, and `absent(summary)` for a cell the baseline does not have.
template <class Row, class Absent>
void for_each_comparison(const std::vector<cell_summary>& summaries, Row&& row, Absent&& absent) {
  for (const auto& summary : summaries) {
    bool any = false;
    for (const auto f : compared_figures()) {
      const auto& c = summary.versus_baseline[static_cast<std::size_t>(f)];
      if (c) {
        any = true;
        row(summary, f, *c);
      }
    }
    if (!any) {
      absent(summary);
    }
  }
}

} // namespace s3fault::bench
