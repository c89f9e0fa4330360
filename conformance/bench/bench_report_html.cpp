// The --html file: one self-contained page (no scripts, no external files) with inline SVG
// charts, throughput against concurrency per size and latency percentiles per cell, and the
// same table of medians the terminal shows.
#include "conformance/bench/bench_reports.hpp"
#include "conformance/bench/comparison_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <sstream>

namespace s3fault::bench {
namespace {

constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                   "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
constexpr int chart_width = 640;
constexpr int chart_height = 300;
constexpr int margin_left = 70;
constexpr int margin_right = 130; // room for the legend
constexpr int margin_top = 30;
constexpr int margin_bottom = 45;

std::string escape(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
    case '&':
      out += "&amp;";
      break;
    case '<':
      out += "&lt;";
      break;
    case '>':
      out += "&gt;";
      break;
    case '"':
      out += "&quot;";
      break;
    default:
      out += c;
    }
  }
  return out;
}

std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

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

/// The frame of a chart: title, y axis with ticks and grid lines, x labels. Returns the scale.
struct frame {
  double y_top = 1;
  int plot_width = chart_width - margin_left - margin_right;
  int plot_height = chart_height - margin_top - margin_bottom;
  double y_at(double value) const { return margin_top + plot_height - value / y_top * plot_height; }
};

frame open_chart(std::ostringstream& svg, const std::string& title, const std::string& y_label,
                 double largest, const std::vector<std::string>& x_labels) {
  frame f;
  const double step = tick_step(largest * 1.05);
  f.y_top = std::max(step, std::ceil(largest * 1.05 / step) * step);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << chart_width << "\" height=\""
      << chart_height << "\" viewBox=\"0 0 " << chart_width << " " << chart_height
      << "\" role=\"img\" aria-label=\"" << escape(title) << "\">\n"
      << "<text x=\"" << margin_left << "\" y=\"18\" class=\"title\">" << escape(title)
      << "</text>\n";
  for (double tick = 0; tick <= f.y_top + step / 2; tick += step) {
    const double y = f.y_at(tick);
    svg << "<line x1=\"" << margin_left << "\" x2=\"" << margin_left + f.plot_width << "\" y1=\""
        << num(y) << "\" y2=\"" << num(y) << "\" class=\"grid\"/>"
        << "<text x=\"" << margin_left - 6 << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
        << escape(num(tick)) << "</text>\n";
  }
  svg << "<text x=\"14\" y=\"" << margin_top + f.plot_height / 2 << "\" transform=\"rotate(-90 14 "
      << margin_top + f.plot_height / 2 << ")\" text-anchor=\"middle\">" << escape(y_label)
      << "</text>\n";
  const double slot = static_cast<double>(f.plot_width) / std::max<std::size_t>(1, x_labels.size());
  for (std::size_t i = 0; i < x_labels.size(); ++i) {
    svg << "<text x=\"" << num(margin_left + slot * (static_cast<double>(i) + 0.5)) << "\" y=\""
        << margin_top + f.plot_height + 18 << "\" text-anchor=\"middle\">" << escape(x_labels[i])
        << "</text>\n";
  }
  return f;
}

void legend(std::ostringstream& svg, const std::vector<std::string>& names) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    const int y = margin_top + 10 + static_cast<int>(i) * 18;
    svg << "<rect x=\"" << chart_width - margin_right + 14 << "\" y=\"" << y - 9
        << "\" width=\"12\" height=\"12\" fill=\"" << palette[i % 8] << "\"/>"
        << "<text x=\"" << chart_width - margin_right + 32 << "\" y=\"" << y + 1 << "\">"
        << escape(names[i]) << "</text>\n";
  }
}

double median_of(const cell_summary& summary, figure f) {
  const auto& s = summary.figures[static_cast<std::size_t>(f)];
  return s ? s->median : 0;
}

/// Throughput against concurrency, one line per size.
std::string throughput_chart(const std::vector<const cell_summary*>& cells, operation op) {
  const bool counts_bytes = op != operation::list && op != operation::delete_object;
  const figure shown = counts_bytes ? figure::mib_per_second : figure::ops_per_second;
  std::set<unsigned> levels;
  std::set<std::uint64_t> sizes;
  double largest = 0;
  for (const auto* c : cells) {
    levels.insert(c->measured.concurrency);
    sizes.insert(c->measured.size);
    largest = std::max(largest, median_of(*c, shown));
  }
  std::vector<std::string> x_labels;
  for (const auto level : levels) {
    x_labels.push_back("c=" + std::to_string(level));
  }
  std::ostringstream svg;
  const auto f = open_chart(svg, std::string(to_string(op)) + ": throughput by concurrency",
                            std::string(info(shown).label), largest, x_labels);
  const double slot = static_cast<double>(f.plot_width) / static_cast<double>(levels.size());
  std::vector<std::string> names;
  std::size_t series = 0;
  for (const auto size : sizes) {
    std::string points;
    for (const auto* c : cells) {
      if (c->measured.size != size) {
        continue;
      }
      const auto position =
          static_cast<double>(std::distance(levels.begin(), levels.find(c->measured.concurrency)));
      const double x = margin_left + slot * (position + 0.5);
      const double y = f.y_at(median_of(*c, shown));
      points += num(x) + "," + num(y) + " ";
      svg << "<circle cx=\"" << num(x) << "\" cy=\"" << num(y) << "\" r=\"3.5\" fill=\""
          << palette[series % 8] << "\"><title>" << escape(describe(c->measured)) << ": "
          << format_figure(shown, median_of(*c, shown)) << " " << info(shown).label
          << "</title></circle>\n";
    }
    svg << "<polyline points=\"" << points << "\" fill=\"none\" stroke=\"" << palette[series % 8]
        << "\" stroke-width=\"2\"/>\n";
    names.push_back(format_size(size));
    ++series;
  }
  legend(svg, names);
  svg << "</svg>\n";
  return svg.str();
}

/// Latency p50, p90 and p99 per cell, as grouped bars.
std::string latency_chart(const std::vector<const cell_summary*>& cells, operation op) {
  constexpr figure shown[] = {figure::latency_p50_ms, figure::latency_p90_ms,
                              figure::latency_p99_ms};
  double largest = 0;
  std::vector<std::string> x_labels;
  for (const auto* c : cells) {
    for (const auto f : shown) {
      largest = std::max(largest, median_of(*c, f));
    }
    x_labels.push_back(format_size(c->measured.size) +
                       " c=" + std::to_string(c->measured.concurrency));
  }
  std::ostringstream svg;
  const auto f = open_chart(svg, std::string(to_string(op)) + ": latency percentiles", "ms",
                            largest, x_labels);
  const double slot = static_cast<double>(f.plot_width) / static_cast<double>(cells.size());
  const double bar = slot * 0.8 / 3;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    for (std::size_t k = 0; k < 3; ++k) {
      const double value = median_of(*cells[i], shown[k]);
      const double x =
          margin_left + slot * static_cast<double>(i) + slot * 0.1 + bar * static_cast<double>(k);
      const double y = f.y_at(value);
      svg << "<rect x=\"" << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(bar)
          << "\" height=\"" << num(margin_top + f.plot_height - y) << "\" fill=\"" << palette[k]
          << "\"><title>" << escape(describe(cells[i]->measured)) << " " << column_title(shown[k])
          << ": " << format_figure(shown[k], value) << " ms</title></rect>\n";
    }
  }
  legend(svg, {"p50", "p90", "p99"});
  svg << "</svg>\n";
  return svg.str();
}

std::string summary_table(const bench_report& report) {
  std::vector<figure> columns;
  for (std::size_t i = 0; i < figure_count; ++i) {
    const auto f = figure_at(i);
    if (!info(f).from_store || any_store_figures(report.summaries)) {
      columns.push_back(f);
    }
  }
  std::ostringstream html;
  html << "<table>\n<tr><th>operation</th><th>size</th><th>conc</th>";
  for (const auto f : columns) {
    html << "<th>" << escape(column_title(f)) << "</th>";
  }
  html << "</tr>\n";
  for (const auto& summary : report.summaries) {
    html << "<tr><td>" << to_string(summary.measured.op) << "</td><td>"
         << format_size(summary.measured.size) << "</td><td>" << summary.measured.concurrency
         << "</td>";
    for (const auto f : columns) {
      const auto& s = summary.figures[static_cast<std::size_t>(f)];
      html << "<td>";
      if (s) {
        html << format_figure(f, s->median);
        if (f == figure::mib_per_second || f == figure::ops_per_second) {
          html << " <small>[" << format_figure(f, s->min) << ".." << format_figure(f, s->max)
               << "]</small>";
        }
      } else {
        html << "-";
      }
      html << "</td>";
    }
    html << "</tr>\n";
  }
  html << "</table>\n";
  return html.str();
}

std::string baseline_table(const bench_report& report) {
  const auto& rules = report.settings->judging;
  std::ostringstream html;
  html << "<h2>Against the baseline " << escape(report.baseline_source) << "</h2>\n";
  for (const auto& mismatch : report.baseline_mismatches) {
    html << "<p class=\"warning\">warning: not measured as the baseline was: " << escape(mismatch)
         << "</p>\n";
  }
  html << "<p>Student's t on the logarithms of the rounds; false-alarm rate "
       << format_percent(100 * rules.alpha, false)
       << " % per figure; flagged when significant, beyond the control band and at least "
       << format_percent(rules.min_change_percent, false)
       << " %. 'detectable': the smallest drop and rise these rounds flag "
       << format_percent(100 * rules.power, false) << " % of the time.</p>\n<table>\n"
       << "<tr><th>operation</th><th>size</th><th>conc</th><th>figure</th>";
  for (const auto& title : comparison_titles(rules)) {
    html << "<th>" << escape(title) << "</th>";
  }
  html << "</tr>\n";
  for (const auto& summary : report.summaries) {
    for (const auto f : compared_figures()) {
      const auto& c = summary.versus_baseline[static_cast<std::size_t>(f)];
      if (!c) {
        continue;
      }
      const char* row_class = c->regression ? " class=\"worse\""
                              : !c->judged  ? " class=\"unjudged\""
                                            : "";
      html << "<tr" << row_class << "><td>" << to_string(summary.measured.op) << "</td><td>"
           << format_size(summary.measured.size) << "</td><td>" << summary.measured.concurrency
           << "</td><td>" << escape(column_title(f)) << "</td>";
      for (const auto& column : comparison_columns(f, *c)) {
        html << "<td>" << escape(column) << "</td>";
      }
      html << "</tr>\n";
    }
  }
  html << "</table>\n";
  return html.str();
}

} // namespace

std::string html_report(const bench_report& report) {
  const auto& settings = *report.settings;
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<title>s3fault bench " << escape(report.started_at) << "</title>\n<style>\n"
       << "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
       << "table{border-collapse:collapse;margin:1em 0}\n"
       << "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\n"
       << "td:first-child,th:first-child{text-align:left}\n"
       << "tr.worse td{background:#fdd}\n"
       << "tr.unjudged td{background:#ffe8b0}\n"
       << ".warning{color:#a40}\n"
       << "svg{margin:0.5em 1em 0.5em 0;font-size:11px}\n"
       << "svg .title{font-size:13px;font-weight:bold}\n"
       << "svg .grid{stroke:#e4e4e4}\n</style>\n</head>\n<body>\n"
       << "<h1>s3fault bench</h1>\n<p>" << escape(report.endpoint) << ", bucket "
       << escape(report.bucket) << ", started " << escape(report.started_at) << "; "
       << settings.rounds << " rounds" << (settings.control ? " with control runs" : "") << ", "
       << (settings.count ? std::to_string(*settings.count) + " operations"
                          : num(settings.duration.count() / 1000.0) + " s")
       << " per run" << (report.interrupted ? "; interrupted" : "") << ".</p>\n";
  std::map<operation, std::vector<const cell_summary*>> by_operation;
  for (const auto& summary : report.summaries) {
    by_operation[summary.measured.op].push_back(&summary);
  }
  for (const auto& [op, cells] : by_operation) {
    html << "<h2>" << to_string(op) << "</h2>\n<div>\n"
         << throughput_chart(cells, op) << latency_chart(cells, op) << "</div>\n";
  }
  html << "<h2>Medians (latency and TTFB in ms; throughput [min..max])</h2>\n"
       << summary_table(report);
  if (!report.baseline_source.empty()) {
    html << baseline_table(report);
  }
  html << "</body>\n</html>\n";
  return html.str();
}

} // namespace s3fault::bench
