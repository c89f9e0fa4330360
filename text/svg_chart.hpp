#pragma once
// What the inline SVG charts of s3fault's HTML pages draw with (the bench's --html page and the
// timeline page of `s3fault report`): numbers as coordinates and tick labels, y scales (linear
// from 0, or logarithmic where the values are far apart), where a value lands on a plot, and a
// legend of swatches. Plain text out, no layout of its own: each page frames its charts.
#include <cstddef>
#include <sstream>
#include <string>
#include <vector>

namespace s3fault::text {

/// A coordinate with one decimal: "12.5".
std::string num(double value);
/// An axis label: "0.25", "2000", "0.001", without trailing zeros.
std::string tick_label(double value);

/// A round step (1, 2, 2.5 or 5 times a power of ten) for about five ticks from 0 to `top`.
double tick_step(double top);

/// The values a y axis spans, linear from 0 or logarithmic, with its tick values.
struct y_scale {
  bool log = false;
  double bottom = 0;
  double top = 1;
  std::vector<double> ticks;
};

/// From 0 to a round value a little above `largest`, about five ticks.
y_scale linear_scale(double largest);
/// From a round value a little below `smallest` (above 0) to one a little above `largest`:
/// ticks at 1, 2 and 5 times each power of ten, only the powers beyond three decades.
y_scale log_scale(double smallest, double largest);

/// The scale of a chart: logarithmic when its largest positive median is at least `log_spread`
/// times its smallest (on a linear axis from 0 the small ones would lie flat on it), else
/// linear; wide enough for `extents` too (bands' edges, a spread's min and max). Values at or
/// below 0 are left out: they have no place on a ratio scale.
y_scale scale_for(const std::vector<double>& medians, const std::vector<double>& extents,
                  double log_spread);

/// Where `value` lands on a plot `height` pixels tall whose top is at `top`: clamped into the
/// plot, so that a value beyond the axis ends at its edge.
double y_position(const y_scale& scale, double value, double top, double height);

/// How a legend entry is drawn: a filled square (a series; lighter with an opacity below 1), a
/// dashed line with a hollow dot, a hollow bar, a grey box (a band) or an I-beam (a spread).
enum class swatch { filled, dashed_line, hollow_bar, band, i_beam };

struct legend_entry {
  std::string name;
  const char* colour;
  swatch look = swatch::filled;
  double opacity = 1; // of a filled square
};

/// A legend, one entry a row: the first row's swatch at (x, first_row_y - 9), its name right of
/// it, each next row `row_height` lower. Names are escaped.
void legend(std::ostringstream& svg, const std::vector<legend_entry>& entries, int x,
            int first_row_y, int row_height);

/// The style the report pages share (fonts, tables, the verdict box, charts in rows); each page
/// adds its own rules after it.
inline constexpr const char* report_page_style =
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
    ".scroll{max-width:100%;overflow-x:auto}\n"
    "table{border-collapse:collapse;margin:0.3em 0 "
    "1.2em;font-size:14px;font-variant-numeric:tabular-nums}\n"
    "caption{text-align:left;font-weight:bold;padding:0.3em 0}\n"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\n"
    "td.name,th.name{text-align:left}\n"
    "td.range{color:#555;font-size:12px}\n"
    "tr.worse td{background:#fdd}\n"
    "tr.unjudged td,tr.cannot-tell td{background:#ffe8b0}\n"
    "td.change-worse{color:#c62828;font-weight:bold}\n"
    "td.change-better{color:#2e7d32;font-weight:bold}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:0.5em 1em}\n"
    "svg .title{font-size:13px;font-weight:bold}\n"
    "svg .grid{stroke:#e4e4e4}\n"
    "svg .axis{fill:#555}\n"
    ".verdict{border-left:8px solid #888;background:#f2f2f2;padding:0.6em 1em;margin:0.5em 0 1em}\n"
    ".verdict .headline{font-size:1.35em;font-weight:bold;margin:0}\n"
    ".verdict ul{margin:0.4em 0 "
    "0;padding-left:1.4em;font-size:14px;font-variant-numeric:tabular-nums}\n";

} // namespace s3fault::text
