// What every chart of the --html page draws with: the frame with its axes, the legend's place,
// and the colours of stores and of what a comparison said. The y scales (linear from 0, or
// logarithmic where the medians are far apart) and the legend's swatches are text/svg_chart's,
// which the timeline page draws with too.
#include "conformance/bench/bench_report_html.hpp"

#include "text/markup.hpp"

#include <algorithm>
#include <iterator>

namespace s3fault::bench::html_page {
namespace {

// Blue first: the one-store page's colour. Then colours far from it and from each other, and
// none of red, green or amber (what a comparison said).
constexpr const char* store_palette[] = {"#1f77b4", "#9467bd", "#17becf", "#8c564b",
                                         "#e377c2", "#7f7f7f", "#bcbd22"};

} // namespace

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
  return text::scale_for(medians, extents, log_axis_spread);
}

double frame::y_at(double value) const {
  return text::y_position(y, value, margin_top, plot_height);
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
  text::legend(svg, entries, chart_width - margin_right + 14, margin_top + 10, legend_row);
}

} // namespace s3fault::bench::html_page
