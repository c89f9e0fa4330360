// What every chart of the --html page draws with: y scales (linear from 0, or logarithmic where
// the medians are far apart), the frame with its axes, the legend, and the colours of stores and
// of what a comparison said.
#include "conformance/bench/bench_report_html.hpp"

#include "text/markup.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace s3fault::bench::html_page {
namespace {

// Blue first: the one-store page's colour. Then colours far from it and from each other, and
// none of red, green or amber (what a comparison said).
constexpr const char* store_palette[] = {"#1f77b4", "#9467bd", "#17becf", "#8c564b",
                                         "#e377c2", "#7f7f7f", "#bcbd22"};

/// A round step for about five ticks up to `top`.
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

y_scale linear_scale(double largest) {
  y_scale scale;
  const double step = tick_step(largest * 1.05);
  scale.top = std::max(step, std::ceil(largest * 1.05 / step) * step);
  for (double tick = 0; tick <= scale.top + step / 2; tick += step) {
    scale.ticks.push_back(tick);
  }
  return scale;
}

/// Ticks at 1, 2 and 5 times each power of ten; only the powers beyond three decades, where
/// the others would crowd.
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

/// Positive values only: a 0 (every operation failed) has no place on a ratio scale.
std::vector<double> positive(const std::vector<double>& values) {
  std::vector<double> kept;
  std::copy_if(values.begin(), values.end(), std::back_inserter(kept),
               [](double v) { return v > 0; });
  return kept;
}

/// Whether medians this far apart need a log axis (log_axis_spread).
bool spread_needs_log(const std::vector<double>& medians) {
  const auto kept = positive(medians);
  if (kept.empty()) {
    return false;
  }
  const auto [least, most] = std::minmax_element(kept.begin(), kept.end());
  return *most >= log_axis_spread * *least;
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

const char* store_colour(std::size_t index) {
  return store_palette[index % std::size(store_palette)];
}

change_look look_of_change(std::string_view word) {
  if (word == "slower" || word == "worse") {
    return {"change-worse", "#c62828"};
  }
  if (word == "faster" || word == "better") {
    return {"change-better", "#2e7d32"};
  }
  if (word == "no difference") {
    return {"change-none", "#757575"};
  }
  if (word == "cannot tell") {
    return {"change-cannot-tell", "#e09000"};
  }
  return {"change-not-judged", "#757575", true};
}

const char* comparison_row_class(const bench_report& report, const comparison& c) {
  // Against a baseline a regression fails the bench; a store slower than the reference is a
  // finding, shown by the colour of its change, not by an alarm.
  if (c.regression && report.reference == reference_kind::baseline) {
    return "worse";
  }
  if (!c.judged) {
    return "unjudged";
  }
  return c.conclusive ? nullptr : "cannot-tell";
}

y_scale scale_for(const std::vector<double>& medians, const std::vector<double>& extents) {
  auto all = positive(medians);
  const auto edges = positive(extents);
  all.insert(all.end(), edges.begin(), edges.end());
  if (all.empty()) {
    return linear_scale(0);
  }
  const auto [least, most] = std::minmax_element(all.begin(), all.end());
  return spread_needs_log(medians) ? log_scale(*least, *most) : linear_scale(*most);
}

double frame::y_at(double value) const {
  double share = 0;
  if (y.log) {
    share = value <= y.bottom
                ? 0
                : (std::log(value) - std::log(y.bottom)) / (std::log(y.top) - std::log(y.bottom));
  } else {
    share = value / y.top;
  }
  return margin_top + plot_height - std::clamp(share, 0.0, 1.0) * plot_height;
}

std::string chart_name(const cell& key) {
  return std::string(to_string(key.op)) + " " + format_size(key.size) +
         (key.stored > 0 ? " stored=" + format_size(key.stored) : "");
}

frame open_chart(std::ostringstream& svg, const chart_about& about, const y_scale& scale,
                 const std::vector<std::string>& x_labels, std::size_t legend_rows) {
  frame f;
  f.y = scale;
  f.height = std::max(chart_height,
                      margin_top + 10 + static_cast<int>(legend_rows) * legend_row + margin_bottom);
  f.plot_height = f.height - margin_top - margin_bottom;
  const std::string title = about.title + (scale.log ? " (log scale)" : "");
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart " << about.kind
      << "\" data-operation=\"" << to_string(about.key.op) << "\" data-size=\""
      << format_size(about.key.size) << "\" data-scale=\"" << (scale.log ? "log" : "linear")
      << "\" width=\"" << chart_width << "\" height=\"" << f.height << "\" viewBox=\"0 0 "
      << chart_width << " " << f.height << "\" role=\"img\" aria-label=\""
      << text::escape_html(title) << "\">\n"
      << "<text x=\"" << margin_left << "\" y=\"18\" class=\"title\">" << text::escape_html(title)
      << "</text>\n";
  for (const double tick : scale.ticks) {
    const double y = f.y_at(tick);
    svg << "<line x1=\"" << margin_left << "\" x2=\"" << margin_left + f.plot_width << "\" y1=\""
        << num(y) << "\" y2=\"" << num(y) << "\" class=\"grid\"/>"
        << "<text x=\"" << margin_left - 6 << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
        << tick_label(tick) << "</text>\n";
  }
  const std::string y_label = about.y_label + (scale.log ? ", log scale" : "");
  svg << "<text x=\"14\" y=\"" << margin_top + f.plot_height / 2 << "\" transform=\"rotate(-90 14 "
      << margin_top + f.plot_height / 2 << ")\" text-anchor=\"middle\">"
      << text::escape_html(y_label) << "</text>\n";
  const double slot = static_cast<double>(f.plot_width) / std::max<std::size_t>(1, x_labels.size());
  for (std::size_t i = 0; i < x_labels.size(); ++i) {
    svg << "<text x=\"" << num(margin_left + slot * (static_cast<double>(i) + 0.5)) << "\" y=\""
        << margin_top + f.plot_height + 18 << "\" text-anchor=\"middle\">"
        << text::escape_html(x_labels[i]) << "</text>\n";
  }
  svg << "<text x=\"" << margin_left + f.plot_width / 2 << "\" y=\""
      << margin_top + f.plot_height + 36 << "\" text-anchor=\"middle\" class=\"axis\">"
      << "concurrency (clients)</text>\n";
  return f;
}

void legend(std::ostringstream& svg, const std::vector<legend_entry>& entries) {
  const int x = chart_width - margin_right + 14;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const int y = margin_top + 10 + static_cast<int>(i) * legend_row;
    draw_swatch(svg, entries[i], x, y);
    svg << "<text x=\"" << x + 18 << "\" y=\"" << y + 1 << "\">"
        << text::escape_html(entries[i].name) << "</text>\n";
  }
}

} // namespace s3fault::bench::html_page
