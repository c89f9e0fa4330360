#pragma once
// The parts of the --html page (html_report in bench_reports.hpp), shared by the files that
// write it:
//
//   bench_report_html.cpp          the page: style, verdict, settings, key; puts the parts below
//   bench_report_html_svg.cpp      what every chart draws with: the frame, the legend's place,
//                                  the colours (the scales and swatches: text/svg_chart.hpp,
//                                  shared with the timeline page)
//   bench_report_html_charts.cpp   per operation and size: throughput and latency, a series per
//                                  store
//   bench_report_html_ratio.cpp    per operation: each comparison's ratio to its reference
//   bench_report_html_tables.cpp   the terminal's tables, with the hooks for checkers
//
// Nothing here is for other code: the page is the interface (docs/bench.md).
#include "conformance/bench/bench_runner.hpp"
#include "text/svg_chart.hpp"

#include <cstddef>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::bench::html_page {

// --- numbers ---------------------------------------------------------------------------------

// A coordinate with one decimal ("12.5") and an axis label ("0.25", "2000", "0.001").
using text::num;
using text::tick_label;

// --- colours ---------------------------------------------------------------------------------

/// The colour of store `index`'s series. The first is the one-store page's colour; none is red,
/// green or amber, which the ratio chart and the tables keep for what a comparison said.
const char* store_colour(std::size_t index);

/// How a comparison's change word (change_word) shows: a CSS class for a table cell and a
/// colour for a ratio chart's dot.
struct change_look {
  const char* css_class; // "change-worse", "change-better", "change-none", ...
  const char* colour;
  bool hollow = false; // not judged: an outline only
};
change_look look_of_change(std::string_view word);

/// The row class of a comparison in a table: "worse" (a regression against a baseline),
/// "unjudged" or "cannot-tell" (both amber), or nullptr.
const char* comparison_row_class(const bench_report& report, const comparison& c);

// --- the parts of the page -------------------------------------------------------------------

/// Per operation a heading, its ratio chart when it has comparisons, then per size its
/// throughput and latency charts side by side.
std::string charts_section(const bench_report& report);

/// The ratio chart of `op` (a forest plot of its throughput figure's comparisons), or "" when
/// none of its cells has one.
std::string ratio_chart(const bench_report& report, operation op);

/// The medians tables, under the terminal's heading, and with --store-pid the store processes'.
std::string summary_tables(const bench_report& report);
/// With --control: the noise band of each compared figure.
std::string noise_table(const bench_report& report);
/// Against a baseline: the comparison table; against the reference store: the stores side by
/// side, then each store's comparison.
std::string comparison_tables(const bench_report& report);

// --- drawing ---------------------------------------------------------------------------------

constexpr int chart_width = 640;
constexpr int chart_height = 300; // at least; a long legend makes a chart taller
constexpr int margin_left = 70;
constexpr int margin_right = 160; // room for the legend
constexpr int margin_top = 30;
constexpr int margin_bottom = 45;
constexpr int legend_row = 18;

/// The rule the docs state: a chart whose largest median (this run's or the baseline's) is at
/// least this many times its smallest gets a log y axis. On a linear axis from 0 a run 20 times
/// slower than its baseline would lie flat on the axis.
constexpr double log_axis_spread = 10;

/// The values a y axis spans, linear from 0 or logarithmic, with its tick values.
using text::y_scale;

/// The scale of a chart: decided by the medians it shows, wide enough for `extents` too (the
/// noise bands' edges, the rounds' min and max).
y_scale scale_for(const std::vector<double>& medians, const std::vector<double>& extents);

/// The frame of a chart: where a value lands on the y axis.
struct frame {
  y_scale y;
  int height = chart_height;
  int plot_width = chart_width - margin_left - margin_right;
  int plot_height = chart_height - margin_top - margin_bottom;

  double bottom_y() const { return margin_top + plot_height; }
  /// Clamped into the plot: a band edge beyond the axis ends at its edge.
  double y_at(double value) const;
};

/// What a chart shows and where a checker finds it without reading its title.
struct chart_about {
  std::string kind; // "throughput" or "latency"
  cell key;         // operation, size and stored volume; concurrency unused
  std::string title;
  std::string y_label;
};

/// "get 1MiB", with --prefill "get 1MiB stored=4GiB".
std::string chart_name(const cell& key);

/// Opens the <svg> of one chart with its title, y axis (ticks, grid lines, label saying a log
/// scale) and x labels. Tall enough for `legend_rows` entries.
frame open_chart(std::ostringstream& svg, const chart_about& about, const y_scale& scale,
                 const std::vector<std::string>& x_labels, std::size_t legend_rows);

/// How a legend entry is drawn: a filled square (a series; lighter for a store's p90 and p99),
/// a dashed line with a hollow dot (the baseline's throughput), a hollow bar (the baseline's
/// latency), a grey box or an I-beam (a noise band, or the rounds' min and max).
using text::legend_entry;
using text::swatch;

/// The legend, right of the plot, one entry a row.
void legend(std::ostringstream& svg, const std::vector<legend_entry>& entries);

} // namespace s3fault::bench::html_page
