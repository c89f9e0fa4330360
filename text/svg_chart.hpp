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

} // namespace s3fault::text
