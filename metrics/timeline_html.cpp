// The timeline page: the verdict in the terminal's words, charts of the whole run drawn with the
// shared SVG helpers (text/svg_chart.hpp, the bench page's scales and legends), and the tables
// of every judged figure. The look is the bench page's (conformance/bench/bench_report_html.cpp).
//
//   timeline intervals --series_of--> one value (or none) per interval and series
//                      --path_of-->   per pixel column its least and greatest value, as one
//                                     <path> ("M x y L x y ..."), broken where whole columns
//                                     had no value
#include "metrics/timeline_html.hpp"

#include "metrics/comparison_statistics.hpp"
#include "text/markup.hpp"
#include "text/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <iterator>
#include <optional>
#include <set>
#include <sstream>
#include <vector>

// File-local names live in their own namespace: the library is compiled in unity batches, where
// another file's anonymous namespace is this one's.
namespace s3fault::metrics::timeline_page {
namespace {

using text::escape_html;
using text::num;

constexpr int chart_width = 640;
constexpr int chart_height = 260; // at least; a long legend makes a chart taller
constexpr int margin_left = 70;
constexpr int margin_right = 160; // room for the legend
constexpr int margin_top = 30;
constexpr int margin_bottom = 45;
constexpr int legend_row = 18;
constexpr int plot_width = chart_width - margin_left - margin_right;
/// As the bench page: a chart whose series' medians are this many times apart gets a log axis.
constexpr double log_axis_spread = 10;

// The bench's store colours: blue first, none of red, green or amber (what a verdict said).
constexpr const char* series_palette[] = {"#1f77b4", "#9467bd", "#17becf", "#8c564b",
                                          "#e377c2", "#7f7f7f", "#bcbd22"};
constexpr const char* percentile_colours[] = {"#1f77b4", "#9467bd", "#17becf"}; // p50 p90 p99
constexpr const char* sixth_colour = "#888";

const char* colour_of(std::size_t index) {
  return series_palette[index % std::size(series_palette)];
}

/// Enough digits to tell neighbouring figures apart: "12.3", "0.84", "1234" (as drift_text).
std::string figure_digits(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", value >= 100 ? 0 : value >= 10 ? 1 : 2, value);
  return text;
}

// --- series ----------------------------------------------------------------------------------

/// One line of a chart: a value per interval, none where there is nothing to draw (an operation
/// without requests has no latency, an interval without a store reading no threads).
struct series {
  std::string name;
  const char* colour;
  bool dashed = false;
  std::vector<std::optional<double>> values;
};

/// What one series drew: its path and how many points it kept.
struct drawn_path {
  std::string d;
  std::size_t points = 0;
};

/// The run's time span and how an interval's middle lands on the x axis.
struct time_axis {
  double start = 0;
  double end = 1;
  double unit_seconds = 1; // seconds, minutes or hours on the labels
  std::string unit_name = "seconds";

  double x_at(double seconds) const {
    return margin_left + (seconds - start) / (end - start) * plot_width;
  }
};

time_axis axis_of(const std::vector<timeline_interval>& intervals) {
  time_axis axis;
  if (!intervals.empty()) {
    axis.start = intervals.front().start;
    axis.end = std::max(intervals.back().end, axis.start + 1e-6);
  }
  const double span = axis.end - axis.start;
  if (span >= 10 * 3600) {
    axis.unit_seconds = 3600;
    axis.unit_name = "hours";
  } else if (span >= 600) {
    axis.unit_seconds = 60;
    axis.unit_name = "minutes";
  }
  return axis;
}

/// A frame of one chart: its scale and where values land.
struct plot_frame {
  text::y_scale y;
  int height = chart_height;
  int plot_height = chart_height - margin_top - margin_bottom;

  double y_at(double value) const { return text::y_position(y, value, margin_top, plot_height); }
};

/// The series as one path: per pixel column the least and the greatest value of the intervals
/// whose middle falls in it, in the order they came; a column where intervals had no value at
/// all breaks the line, and a point alone between breaks is drawn as a dot (round caps).
drawn_path path_of(const series& line, const std::vector<timeline_interval>& intervals,
                   const time_axis& axis, const plot_frame& frame) {
  drawn_path out;
  std::ostringstream d;
  bool start_anew = true;
  std::size_t in_subpath = 0;
  const auto emit = [&](std::size_t i) {
    const double x = axis.x_at((intervals[i].start + intervals[i].end) / 2);
    if (start_anew && in_subpath == 1) {
      d << "h0"; // the last subpath was one point: a dot
    }
    d << (start_anew ? "M" : "L") << num(x) << " " << num(frame.y_at(*line.values[i]));
    in_subpath = start_anew ? 1 : in_subpath + 1;
    start_anew = false;
    ++out.points;
  };
  constexpr std::size_t none = static_cast<std::size_t>(-1);
  long column = -1;
  std::size_t least = none, greatest = none; // this column's, by interval
  bool missing = false;
  const auto finish_column = [&] {
    if (least != none) {
      emit(std::min(least, greatest));
      if (least != greatest) {
        emit(std::max(least, greatest));
      }
    } else if (missing) {
      start_anew = true;
    }
    least = greatest = none;
    missing = false;
  };
  for (std::size_t i = 0; i < intervals.size() && i < line.values.size(); ++i) {
    const double x = axis.x_at((intervals[i].start + intervals[i].end) / 2) - margin_left;
    const long here = std::clamp(static_cast<long>(std::floor(x)), 0L, long{plot_width - 1});
    if (here != column) {
      finish_column();
      column = here;
    }
    const auto& value = line.values[i];
    if (!value) {
      missing = true;
      continue;
    }
    if (least == none || *value < *line.values[least]) {
      least = i;
    }
    if (greatest == none || *value > *line.values[greatest]) {
      greatest = i;
    }
  }
  finish_column();
  if (in_subpath == 1) {
    d << "h0";
  }
  out.d = d.str();
  return out;
}

double median_of(std::vector<double> values) {
  if (values.empty()) {
    return 0;
  }
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

/// The scale of a chart: logarithmic where its series' medians are far apart (the bench's rule),
/// wide enough for every value drawn. `may_be_log` false: linear from 0 whatever the spread.
text::y_scale scale_of(const std::vector<series>& lines, bool may_be_log) {
  std::vector<double> medians, extents;
  for (const auto& line : lines) {
    std::vector<double> values;
    for (const auto& value : line.values) {
      if (value) {
        values.push_back(*value);
      }
    }
    if (values.empty()) {
      continue;
    }
    const auto [least, most] = std::minmax_element(values.begin(), values.end());
    extents.push_back(*least);
    extents.push_back(*most);
    medians.push_back(median_of(values));
  }
  if (!may_be_log) {
    return text::linear_scale(extents.empty() ? 0
                                              : *std::max_element(extents.begin(), extents.end()));
  }
  return text::scale_for(medians, extents, log_axis_spread);
}

// --- charts ----------------------------------------------------------------------------------

/// What a chart shows and where a checker finds it.
struct chart_about {
  std::string kind; // "latency", "throughput", "requests", "errors", "threads", "memory", "cpu"
  std::string operation; // a latency chart's; else empty
  std::string title;
  std::string y_label;
  bool may_be_log = true;
};

/// The first and last sixths that drift compares, shaded, when it compared them.
void shade_sixths(std::ostringstream& svg, const drift_report& drift, const time_axis& axis,
                  const plot_frame& frame) {
  if (!drift.not_judged.empty() || drift.first_sixth_end <= axis.start) {
    return;
  }
  const auto shade = [&](double from, double to, const char* name) {
    const double left = axis.x_at(from);
    const double right = axis.x_at(to);
    svg << "<rect class=\"sixth\" x=\"" << num(left) << "\" y=\"" << margin_top << "\" width=\""
        << num(std::max(1.0, right - left)) << "\" height=\"" << frame.plot_height << "\" fill=\""
        << sixth_colour << "\" fill-opacity=\"0.15\"><title>" << name << "</title></rect>\n"
        << "<text x=\"" << num(left + 3) << "\" y=\"" << margin_top + 11 << "\" class=\"axis\">"
        << name << "</text>\n";
  };
  shade(axis.start, drift.first_sixth_end, "first sixth");
  shade(drift.last_sixth_start, axis.end, "last sixth");
}

/// The x axis: round ticks of seconds, minutes or hours since the run started (a timeline's
/// first interval may start later, when the recording began after the run).
void time_ticks(std::ostringstream& svg, const time_axis& axis, const plot_frame& frame) {
  const double first = axis.start / axis.unit_seconds;
  const double last = axis.end / axis.unit_seconds;
  const double step = text::tick_step(last - first);
  const double bottom = margin_top + frame.plot_height;
  // + 0.0: a first tick of -0 (ceil of a hair below 0) is labelled "0", not "-0".
  for (double tick = std::ceil(first / step - 1e-9) * step + 0.0; tick <= last + step * 1e-6;
       tick += step) {
    const double x = axis.x_at(tick * axis.unit_seconds);
    svg << "<line x1=\"" << num(x) << "\" x2=\"" << num(x) << "\" y1=\"" << num(bottom)
        << "\" y2=\"" << num(bottom + 4) << "\" stroke=\"#999\"/><text x=\"" << num(x) << "\" y=\""
        << num(bottom + 17) << "\" text-anchor=\"middle\">" << text::tick_label(tick)
        << "</text>\n";
  }
  svg << "<text x=\"" << margin_left + plot_width / 2 << "\" y=\"" << num(bottom + 36)
      << "\" text-anchor=\"middle\" class=\"axis\">" << axis.unit_name
      << " since the start</text>\n";
}

/// One chart: its frame (ticks, grid, labels), the sixths shaded, a path per series, a legend.
std::string chart(const chart_about& about, const std::vector<series>& lines,
                  const std::vector<timeline_interval>& intervals, const time_axis& axis,
                  const drift_report& drift) {
  plot_frame frame;
  frame.y = scale_of(lines, about.may_be_log);
  frame.height = std::max(
      chart_height, margin_top + 10 + static_cast<int>(lines.size()) * legend_row + margin_bottom);
  frame.plot_height = frame.height - margin_top - margin_bottom;
  const std::string title = about.title + (frame.y.log ? " (log scale)" : "");
  std::ostringstream svg;
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart timeline " << about.kind
      << "\" data-chart=\"" << about.kind << "\"";
  if (!about.operation.empty()) {
    svg << " data-operation=\"" << escape_html(about.operation) << "\"";
  }
  svg << " data-scale=\"" << (frame.y.log ? "log" : "linear") << "\" width=\"" << chart_width
      << "\" height=\"" << frame.height << "\" viewBox=\"0 0 " << chart_width << " " << frame.height
      << "\" role=\"img\" aria-label=\"" << escape_html(title) << "\">\n"
      << "<text x=\"" << margin_left << "\" y=\"18\" class=\"title\">" << escape_html(title)
      << "</text>\n";
  shade_sixths(svg, drift, axis, frame);
  for (const double tick : frame.y.ticks) {
    const double y = frame.y_at(tick);
    svg << "<line x1=\"" << margin_left << "\" x2=\"" << margin_left + plot_width << "\" y1=\""
        << num(y) << "\" y2=\"" << num(y) << "\" class=\"grid\"/>"
        << "<text x=\"" << margin_left - 6 << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
        << text::tick_label(tick) << "</text>\n";
  }
  const std::string y_label = about.y_label + (frame.y.log ? ", log scale" : "");
  svg << "<text x=\"14\" y=\"" << margin_top + frame.plot_height / 2
      << "\" transform=\"rotate(-90 14 " << margin_top + frame.plot_height / 2
      << ")\" text-anchor=\"middle\">" << escape_html(y_label) << "</text>\n";
  time_ticks(svg, axis, frame);
  std::vector<text::legend_entry> entries;
  for (const auto& line : lines) {
    const auto drawn = path_of(line, intervals, axis, frame);
    svg << "<path class=\"series\" data-series=\"" << escape_html(line.name) << "\" data-points=\""
        << drawn.points << "\" d=\"" << drawn.d << "\" stroke=\"" << line.colour << "\""
        << (line.dashed ? " stroke-dasharray=\"5 3\"" : "") << "/>\n";
    entries.push_back(
        {line.name, line.colour, line.dashed ? text::swatch::dashed_line : text::swatch::filled});
  }
  text::legend(svg, entries, chart_width - margin_right + 14, margin_top + 10, legend_row);
  svg << "</svg>\n";
  return svg.str();
}

/// Every operation the timeline saw, by name.
std::vector<std::string> operations_of(const std::vector<timeline_interval>& intervals) {
  std::set<std::string> names;
  for (const auto& interval : intervals) {
    for (const auto& entry : interval.operations) {
      names.insert(entry.first);
    }
  }
  return {names.begin(), names.end()};
}

/// A series of each interval's `value` (none where it gives none).
series series_of(std::string name, const char* colour,
                 const std::vector<timeline_interval>& intervals,
                 const std::function<std::optional<double>(const timeline_interval&)>& value) {
  series out{std::move(name), colour, false, {}};
  out.values.reserve(intervals.size());
  for (const auto& interval : intervals) {
    out.values.push_back(value(interval));
  }
  return out;
}

/// An operation's traffic in an interval, or nullptr when it had none there.
const operation_interval* traffic_of(const timeline_interval& interval, const std::string& name) {
  const auto found = interval.operations.find(name);
  return found == interval.operations.end() ? nullptr : &found->second;
}

double seconds_of(const timeline_interval& interval) {
  return std::max(interval.end - interval.start, 1e-9);
}

std::string latency_charts(const std::vector<timeline_interval>& intervals,
                           const std::vector<std::string>& operations, const time_axis& axis,
                           const drift_report& drift) {
  std::ostringstream html;
  constexpr double quantiles[] = {0.5, 0.9, 0.99};
  constexpr const char* names[] = {"p50", "p90", "p99"};
  for (const auto& operation : operations) {
    std::vector<series> lines;
    for (std::size_t q = 0; q < std::size(quantiles); ++q) {
      lines.push_back(series_of(names[q], percentile_colours[q], intervals,
                                [&](const timeline_interval& interval) -> std::optional<double> {
                                  const auto* traffic = traffic_of(interval, operation);
                                  if (traffic == nullptr || traffic->latency.empty()) {
                                    return std::nullopt;
                                  }
                                  return static_cast<double>(latency_histogram::quantile_between(
                                             traffic->latency, {}, quantiles[q])) /
                                         1000.0;
                                }));
    }
    html << chart({"latency", operation, operation + ": latency", "ms"}, lines, intervals, axis,
                  drift);
  }
  return html.str();
}

std::string throughput_charts(const std::vector<timeline_interval>& intervals,
                              const std::vector<std::string>& operations, const time_axis& axis,
                              const drift_report& drift) {
  std::vector<series> mib, requests;
  for (std::size_t i = 0; i < operations.size(); ++i) {
    const auto& operation = operations[i];
    const bool moved_bytes = std::any_of(intervals.begin(), intervals.end(), [&](const auto& at) {
      const auto* traffic = traffic_of(at, operation);
      return traffic != nullptr && traffic->bytes > 0;
    });
    if (moved_bytes) {
      mib.push_back(series_of(operation, colour_of(i), intervals, [&](const auto& interval) {
        const auto* traffic = traffic_of(interval, operation);
        return std::optional<double>(traffic == nullptr ? 0.0
                                                        : static_cast<double>(traffic->bytes) /
                                                              bytes_per_mib / seconds_of(interval));
      }));
    }
    requests.push_back(series_of(operation, colour_of(i), intervals, [&](const auto& interval) {
      const auto* traffic = traffic_of(interval, operation);
      return std::optional<double>(
          traffic == nullptr ? 0.0 : static_cast<double>(traffic->requests) / seconds_of(interval));
    }));
  }
  std::ostringstream html;
  if (!mib.empty()) {
    html << chart({"throughput", "", "Throughput per operation", "MiB/s"}, mib, intervals, axis,
                  drift);
  }
  html << chart({"requests", "", "Requests per second per operation", "requests/s"}, requests,
                intervals, axis, drift);
  return html.str();
}

std::string error_chart(const std::vector<timeline_interval>& intervals,
                        const std::vector<std::string>& operations, const time_axis& axis,
                        const drift_report& drift) {
  std::vector<series> lines;
  for (std::size_t i = 0; i < operations.size(); ++i) {
    const auto& operation = operations[i];
    const auto rate_of = [&](std::uint64_t operation_interval::*field) {
      return [&operation, field](const timeline_interval& interval) {
        const auto* traffic = traffic_of(interval, operation);
        return std::optional<double>(
            traffic == nullptr ? 0.0 : static_cast<double>(traffic->*field) / seconds_of(interval));
      };
    };
    lines.push_back(series_of(operation + " errors", colour_of(i), intervals,
                              rate_of(&operation_interval::errors)));
    auto retries = series_of(operation + " retries", colour_of(i), intervals,
                             rate_of(&operation_interval::retries));
    retries.dashed = true;
    lines.push_back(std::move(retries));
  }
  return chart({"errors", "", "Errors and retries per second", "per second", false}, lines,
               intervals, axis, drift);
}

std::string store_charts(const std::vector<timeline_interval>& intervals, const time_axis& axis,
                         const drift_report& drift) {
  const auto reading = [](auto figure) {
    return [figure](const timeline_interval& interval) -> std::optional<double> {
      if (!interval.store) {
        return std::nullopt;
      }
      return figure(*interval.store);
    };
  };
  std::ostringstream html;
  html << chart({"threads", "", "Store threads", "threads", false},
                {series_of("threads", colour_of(0), intervals, reading([](const store_interval& s) {
                             return static_cast<double>(s.threads);
                           }))},
                intervals, axis, drift);
  html << chart(
      {"memory", "", "Store memory", "MiB", false},
      {series_of("total", colour_of(0), intervals, reading([](const store_interval& s) {
                   return static_cast<double>(s.memory_bytes) / bytes_per_mib;
                 })),
       series_of("anonymous", colour_of(1), intervals, reading([](const store_interval& s) {
                   return static_cast<double>(s.anon_bytes) / bytes_per_mib;
                 }))},
      intervals, axis, drift);
  html << chart({"cpu", "", "Store CPU", "% of one core", false},
                {series_of("CPU", colour_of(0), intervals,
                           reading([](const store_interval& s) { return s.cpu_percent; }))},
                intervals, axis, drift);
  return html.str();
}

// --- the verdict and the tables --------------------------------------------------------------

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    lines.push_back(line);
  }
  return lines;
}

/// "no drift" -> "no-drift": the verdict as a CSS class.
std::string css_class_of(std::string verdict) {
  std::replace(verdict.begin(), verdict.end(), ' ', '-');
  return verdict;
}

/// A box of the terminal's lines: the headline (the verdict word coloured), then the others.
std::string verdict_box(const std::string& classes, const std::string& headline,
                        const std::vector<std::string>& details) {
  std::ostringstream html;
  html << "<section class=\"verdict " << classes << "\">\n<p class=\"headline\">"
       << escape_html(headline) << "</p>\n";
  if (!details.empty()) {
    html << "<ul class=\"details\">\n";
    for (const auto& line : details) {
      // The terminal indents a figure's line under its heading; the list does that here.
      const auto first = line.find_first_not_of(' ');
      html << "<li>" << escape_html(first == std::string::npos ? "" : line.substr(first))
           << "</li>\n";
    }
    html << "</ul>\n";
  }
  html << "</section>\n";
  return html.str();
}

/// The drift verdict in drift_text's words: its "Drift:" line as the headline, the figures'
/// and the store's lines under it. (The "Timeline:" line goes to the settings paragraph.)
std::string drift_section(const drift_report& drift, const drift_rules& rules,
                          const timeline_record& record) {
  const auto lines = lines_of(drift_text(drift, rules, record));
  std::string headline;
  std::vector<std::string> details;
  for (const auto& line : lines) {
    if (line.rfind("Timeline:", 0) == 0) {
      continue;
    }
    if (headline.empty() && line.rfind("Drift:", 0) == 0) {
      headline = line;
    } else {
      details.push_back(line);
    }
  }
  return verdict_box(css_class_of(overall_drift_verdict(drift)), headline, details);
}

std::string comparison_section(const runs_comparison& compared, const drift_rules& rules,
                               const std::string& first_name, const std::string& second_name) {
  auto lines = lines_of(runs_comparison_text(compared, rules, first_name, second_name));
  const std::string headline = lines.empty() ? "" : lines.front();
  if (!lines.empty()) {
    lines.erase(lines.begin());
  }
  return verdict_box("comparison " + css_class_of(overall_runs_verdict(compared)), headline, lines);
}

/// How a figure's verdict shows in the table: its cell's class, and its row's.
struct verdict_look {
  const char* cell;
  const char* row; // nullptr: an ordinary row
};

verdict_look look_of(const figure_drift& figure) {
  const auto& c = figure.result;
  if (!c.judged) {
    return {"change-not-judged", "unjudged"};
  }
  if (c.regression) {
    return {"change-worse", "worse"};
  }
  if (c.flagged) {
    return {"change-better", nullptr};
  }
  return c.conclusive ? verdict_look{"change-none", nullptr}
                      : verdict_look{"change-cannot-tell", "cannot-tell"};
}

/// One row per operation and figure: first, last, change, interval, p, detectable, verdict.
std::string figures_table(const std::string& css_class, const std::string& caption,
                          const std::string& first_heading, const std::string& last_heading,
                          const std::vector<operation_drift>& operations) {
  std::ostringstream html;
  html << "<div class=\"scroll\"><table class=\"" << css_class << "\">\n<caption>"
       << escape_html(caption) << "</caption>\n<tr><th class=\"name\">operation</th>"
       << "<th class=\"name\">figure</th><th>" << escape_html(first_heading) << "</th><th>"
       << escape_html(last_heading)
       << "</th><th>change %</th><th>interval %</th><th>p</th><th>detectable %</th>"
       << "<th class=\"name\">verdict</th></tr>\n";
  for (const auto& operation : operations) {
    for (const auto& figure : operation.figures) {
      const auto& c = figure.result;
      const auto look = look_of(figure);
      html << "<tr";
      if (look.row != nullptr) {
        html << " class=\"" << look.row << "\"";
      }
      html << " data-operation=\"" << escape_html(operation.operation) << "\" data-figure=\""
           << escape_html(figure.figure) << "\"><td class=\"name\">"
           << escape_html(operation.operation) << "</td><td class=\"name\">"
           << escape_html(figure.figure)
           // A rate says its unit; a latency's is said after it.
           << (figure.figure.find("/s") == std::string::npos ? escape_html(" (" + figure.unit + ")")
                                                             : "")
           << "</td>";
      const auto side = [&](const std::vector<double>& blocks, double median) {
        html << "<td>" << (blocks.empty() ? "-" : figure_digits(median)) << "</td>";
      };
      side(figure.first_blocks, c.baseline);
      side(figure.last_blocks, c.current);
      if (c.judged) {
        html << "<td>" << format_percent(c.delta_percent, true) << "</td><td class=\"range\">["
             << format_percent(c.interval_low_percent, true) << ", "
             << format_percent(c.interval_high_percent, true) << "]</td><td>"
             << escape_html(p_value_text(c.p_value)) << "</td><td>-"
             << format_percent(c.detectable_drop_percent, false) << "/+"
             << format_percent(c.detectable_rise_percent, false) << "</td>";
      } else {
        html << "<td>-</td><td>-</td><td>-</td><td>-</td>";
      }
      html << "<td class=\"name " << look.cell << "\" data-column=\"verdict\"";
      if (!c.judged) {
        html << " title=\"" << escape_html(c.not_judged) << "\"";
      }
      html << ">" << escape_html(drift_verdict(figure)) << "</td></tr>\n";
    }
  }
  html << "</table></div>\n";
  return html.str();
}

// After text::report_page_style, the bench page's look: this page's verdict colours, notes, and
// two charts a row in a window 1280 pixels wide.
constexpr const char* page_style =
    "td.change-none{color:#2e7d32}\n"
    "td.change-cannot-tell,td.change-not-judged{color:#a86800;font-weight:bold}\n"
    ".note{color:#555;font-size:14px}\n"
    ".charts svg{flex:0 1 590px;min-width:0;height:auto;font-size:11px}\n"
    "svg path.series{fill:none;stroke-width:1.5;stroke-linejoin:round;stroke-linecap:round}\n"
    ".verdict.drift,.verdict.worse{border-color:#c62828;background:#fdecea}\n"
    ".verdict.drift .headline,.verdict.worse .headline{color:#c62828}\n"
    ".verdict.no-drift,.verdict.no-difference{border-color:#2e7d32;background:#e9f6ea}\n"
    ".verdict.cannot-tell,.verdict.not-judged{border-color:#e09000;background:#fff4dc}\n";

/// Where the timeline came from and how its charts are drawn.
std::string about_paragraphs(const timeline_record& record, const drift_report& drift,
                             const drift_rules& rules) {
  const auto lines = lines_of(drift_text(drift, rules, record));
  std::ostringstream html;
  html << "<p class=\"timeline-summary\">" << escape_html(lines.empty() ? "" : lines.front())
       << "; store: " << (record.store.empty() ? "not sampled" : escape_html(record.store))
       << ".</p>\n";
  html << "<p class=\"note\">Each chart spans the whole run, each with its own y axis; an axis "
          "is logarithmic (said in its title) where the medians of its series are at least "
       << text::tick_label(log_axis_spread)
       << " times apart. Grey: the first and the last sixth, which the drift compares. A "
          "latency line breaks where its operation had no requests.";
  if (record.intervals.size() > static_cast<std::size_t>(plot_width)) {
    html << " The " << record.intervals.size() << " intervals are more than a chart's "
         << plot_width
         << " pixel columns: each column draws the least and the greatest value of the "
            "intervals in it, so that short spikes still show.";
  }
  html << "</p>\n<p class=\"note method\">" << escape_html(drift_method_text(rules)) << "</p>\n";
  return html.str();
}

} // namespace
} // namespace s3fault::metrics::timeline_page

namespace s3fault::metrics {

std::string timeline_html(const timeline_record& record, const drift_report& drift,
                          const drift_rules& rules, const std::string& title,
                          const runs_comparison* against, const std::string& first_name,
                          const std::string& second_name) {
  namespace page = timeline_page;
  const auto& intervals = record.intervals;
  const auto operations = page::operations_of(intervals);
  const auto axis = page::axis_of(intervals);
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       << "<title>" << text::escape_html(title) << "</title>\n<style>\n"
       << text::report_page_style << page::page_style << "</style>\n</head>\n<body>\n<h1>"
       << text::escape_html(title) << "</h1>\n"
       << page::drift_section(drift, rules, record);
  if (against != nullptr) {
    html << page::comparison_section(*against, rules, first_name, second_name);
  }
  html << page::about_paragraphs(record, drift, rules);
  if (intervals.empty()) {
    html << "<p>The timeline has no intervals: nothing to draw.</p>\n";
  } else {
    if (!operations.empty()) {
      html << "<h2>Latency</h2>\n<div class=\"charts\">\n"
           << page::latency_charts(intervals, operations, axis, drift) << "</div>\n"
           << "<h2>Throughput and errors</h2>\n<div class=\"charts\">\n"
           << page::throughput_charts(intervals, operations, axis, drift)
           << page::error_chart(intervals, operations, axis, drift) << "</div>\n";
    }
    const bool sampled = std::any_of(intervals.begin(), intervals.end(), [](const auto& interval) {
      return interval.store.has_value();
    });
    if (sampled) {
      html << "<h2>Store</h2>\n<div class=\"charts\">\n"
           << page::store_charts(intervals, axis, drift) << "</div>\n";
    }
  }
  html << "<h2>Drift, the first sixth against the last</h2>\n";
  if (!drift.not_judged.empty()) {
    html << "<p>Not judged: " << text::escape_html(drift.not_judged) << ".</p>\n";
  } else {
    html << page::figures_table("drift",
                                "One row per operation and figure: the medians of the blocks",
                                "first", "last", drift.operations);
  }
  if (against != nullptr) {
    html << "<h2>" << text::escape_html(second_name) << " against " << text::escape_html(first_name)
         << "</h2>\n";
    if (!against->not_judged.empty()) {
      html << "<p>Not judged: " << text::escape_html(against->not_judged) << ".</p>\n";
    } else {
      html << page::figures_table("runs",
                                  "One row per operation and figure: the medians of the blocks",
                                  first_name, second_name, against->operations);
    }
  }
  html << "</body>\n</html>\n";
  return html.str();
}

} // namespace s3fault::metrics
