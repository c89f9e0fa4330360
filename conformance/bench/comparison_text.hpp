#pragma once
// One comparison (against a baseline, or a store against the reference store) as the columns
// the terminal and the HTML page show, so both say the same thing with the same digits.
#include "conformance/bench/comparison_engine.hpp"

#include <string>
#include <vector>

namespace s3fault::bench {

/// Against a baseline: "baseline", "now", "delta %", "rounds", "ratio 99.0 % interval", "p",
/// "detectable %", "change"; against a reference store named a: "a", "median", "ratio", ...
std::vector<std::string> comparison_titles(const judging_rules& rules, reference_kind kind,
                                           const std::string& reference_store);
/// The columns under comparison_titles: "-" where a figure could not be judged, the ratio of
/// the medians as "0.21x" against a store, and the change as "slower", "worse", ...,
/// "no difference", "cannot tell" or "not judged: WHY".
std::vector<std::string> comparison_columns(figure f, const comparison& c, reference_kind kind);
/// The ratio of the medians, current over reference: "0.21x", "1.05x", "12.3x".
std::string ratio_text(const comparison& c);
/// A factor one side is slower or faster by: "4.8x", "12x".
std::string format_factor(double factor);
/// A ratio with at least two significant digits: "0.0088x", "0.21x", "1.05x", "12.3x", "113x".
std::string format_ratio(double ratio);

/// One row of the stores' side-by-side table: a compared figure of one cell on every store, in
/// the stores' order (the reference first).
struct side_by_side_row {
  figure shown;
  std::vector<const cell_summary*> stores;
};
/// The rows, cell by cell, for each compared figure any store of the cell has a value of.
std::vector<side_by_side_row> side_by_side(const std::vector<cell_summary>& summaries);

/// The rows of a comparison table: `row(summary, figure, comparison)` for every compared figure
/// a cell has a comparison for, and `absent(summary)` for a cell the baseline does not have.
template <class Row, class Absent>
void for_each_comparison(const std::vector<cell_summary>& summaries, Row&& row, Absent&& absent) {
  for (const auto& summary : summaries) {
    bool any = false;
    for (const auto f : compared_figures()) {
      const auto& c = summary.versus[static_cast<std::size_t>(f)];
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
