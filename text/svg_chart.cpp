// The arithmetic of chart axes and the drawing of legends, shared by every HTML page.
#include "text/svg_chart.hpp"

#include "text/markup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace s3fault::text {
namespace {

/// The nearest of 1, 2 or 5 times a power of ten at or below `value` (above 0), or above it.
double round_number_below(double value) {
  const double decade = std::pow(10.0, std::floor(std::log10(value)));
  for (const double factor : {5.0, 2.0, 1.0}) {
    if (factor * decade <= value) {
      return factor * decade;
    }
  }
  return decade;
}

double round_number_above(double value) {
  const double decade = std::pow(10.0, std::floor(std::log10(value)));
  for (const double factor : {1.0, 2.0, 5.0, 10.0}) {
    if (factor * decade >= value) {
      return factor * decade;
    }
  }
  return 10 * decade;
}

/// Positive values only: a 0 (every operation failed) has no place on a ratio scale.
std::vector<double> positive_values(const std::vector<double>& values) {
  std::vector<double> kept;
  std::copy_if(values.begin(), values.end(), std::back_inserter(kept),
               [](double v) { return v > 0; });
  return kept;
}

/// Whether medians this far apart need a log axis.
bool spread_needs_log(const std::vector<double>& medians, double log_spread) {
  const auto kept = positive_values(medians);
  if (kept.empty()) {
    return false;
  }
  const auto [least, most] = std::minmax_element(kept.begin(), kept.end());
  return *most >= log_spread * *least;
}

/// One legend swatch, its top left near (x, y - 9).
void draw_swatch(std::ostringstream& svg, const legend_entry& entry, int x, int y) {
  switch (entry.look) {
  case swatch::filled:
    svg << "<rect x=\"" << x << "\" y=\"" << y - 9 << "\" width=\"12\" height=\"12\" fill=\""
        << entry.colour << "\"";
    // A lighter square gets its colour's outline, as the bars it stands for have.
    if (entry.opacity < 1) {
      svg << " fill-opacity=\"" << entry.opacity << "\" stroke=\"" << entry.colour << "\"";
    }
    svg << "/>";
    break;
  case swatch::dashed_line:
    svg << "<line x1=\"" << x - 4 << "\" x2=\"" << x + 16 << "\" y1=\"" << y - 3 << "\" y2=\""
        << y - 3 << "\" stroke=\"" << entry.colour
        << "\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/><circle cx=\"" << x + 6 << "\" cy=\""
        << y - 3 << "\" r=\"3.5\" fill=\"#fff\" stroke=\"" << entry.colour
        << "\" stroke-width=\"2\"/>";
    break;
  case swatch::hollow_bar:
    svg << "<rect x=\"" << x + 1 << "\" y=\"" << y - 8 << "\" width=\"10\" height=\"10\" fill=\""
        << entry.colour << "\" fill-opacity=\"0.12\" stroke=\"" << entry.colour
        << "\" stroke-width=\"2\"/>";
    break;
  case swatch::band:
    svg << "<rect x=\"" << x << "\" y=\"" << y - 9 << "\" width=\"12\" height=\"12\" fill=\""
        << entry.colour << "\" fill-opacity=\"0.3\"/>";
    break;
  case swatch::i_beam:
    svg << "<path d=\"M" << x + 2 << " " << y - 9 << "H" << x + 10 << "M" << x + 6 << " " << y - 9
        << "V" << y + 3 << "M" << x + 2 << " " << y + 3 << "H" << x + 10 << "\" stroke=\""
        << entry.colour << "\" stroke-width=\"1.5\" fill=\"none\"/>";
    break;
  }
}

} // namespace

std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string tick_label(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", value);
  return text;
}

double tick_step(double top) {
  if (top <= 0) {
    return 1;
  }
  const double raw = top / 5;
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double factor : {1.0, 2.0, 2.5, 5.0, 10.0}) {
    if (raw <= factor * magnitude) {
      return factor * magnitude;
    }
  }
  return 10 * magnitude;
}

y_scale linear_scale(double largest) {
  y_scale scale;
  const double step = tick_step(largest * 1.05);
  scale.top = std::max(step, std::ceil(largest * 1.05 / step) * step);
  for (double tick = 0; tick <= scale.top + step / 2; tick += step) {
    scale.ticks.push_back(tick);
  }
  return scale;
}

y_scale log_scale(double smallest, double largest) {
  y_scale scale;
  scale.log = true;
  scale.bottom = round_number_below(smallest / 1.1);
  scale.top = round_number_above(largest * 1.1);
  const bool many_decades = scale.top / scale.bottom > 1e3;
  for (double decade = std::pow(10.0, std::floor(std::log10(scale.bottom))); decade <= scale.top;
       decade *= 10) {
    for (const double factor : {1.0, 2.0, 5.0}) {
      const double tick = factor * decade;
      if ((factor == 1.0 || !many_decades) && tick >= scale.bottom * 0.999 &&
          tick <= scale.top * 1.001) {
        scale.ticks.push_back(tick);
      }
    }
  }
  return scale;
}

y_scale scale_for(const std::vector<double>& medians, const std::vector<double>& extents,
                  double log_spread) {
  auto all = positive_values(medians);
  const auto edges = positive_values(extents);
  all.insert(all.end(), edges.begin(), edges.end());
  if (all.empty()) {
    return linear_scale(0);
  }
  const auto [least, most] = std::minmax_element(all.begin(), all.end());
  return spread_needs_log(medians, log_spread) ? log_scale(*least, *most) : linear_scale(*most);
}

double y_position(const y_scale& scale, double value, double top, double height) {
  double share = 0;
  if (scale.log) {
    share = value <= scale.bottom ? 0
                                  : (std::log(value) - std::log(scale.bottom)) /
                                        (std::log(scale.top) - std::log(scale.bottom));
  } else {
    share = value / scale.top;
  }
  return top + height - std::clamp(share, 0.0, 1.0) * height;
}

void legend(std::ostringstream& svg, const std::vector<legend_entry>& entries, int x,
            int first_row_y, int row_height) {
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const int y = first_row_y + static_cast<int>(i) * row_height;
    draw_swatch(svg, entries[i], x, y);
    svg << "<text x=\"" << x + 18 << "\" y=\"" << y + 1 << "\">" << escape_html(entries[i].name)
        << "</text>\n";
  }
}

} // namespace s3fault::text
