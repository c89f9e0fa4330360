// The --html file: one self-contained page (no scripts, no external files) with inline SVG
// charts, throughput against concurrency per size and latency percentiles per cell, with the
// baseline's medians overlaid when there is one; then the tables the terminal prints (medians,
// store processes, noise bands, the baseline comparison), with the same digits.
//
// Every table cell that holds a figure carries hooks for checkers (the page has no script):
//   <td data-cell="get 1MiB c=4" data-figure="mib_per_second" data-column="median">
// data-column says which value of the figure the cell holds: "median" or "range" in the medians
// tables, "noise" in the noise table, and baseline, now, delta, rounds, interval, p, detectable
// or change in the baseline table. Baseline marks in the charts have the class "baseline-mark".
#include "conformance/bench/bench_reports.hpp"

#include "conformance/bench/comparison_text.hpp"
#include "text/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <sstream>

namespace s3fault::bench {
namespace {

constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd",
                                   "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
constexpr int chart_width = 640;
constexpr int chart_height = 300; // at least; a long legend makes a chart taller
constexpr int margin_left = 70;
constexpr int margin_right = 150; // room for the legend
constexpr int margin_top = 30;
constexpr int margin_bottom = 45;
constexpr int legend_row = 18;

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

/// How a legend entry is drawn: a filled square (this run), a dashed line with a hollow dot
/// (the baseline's throughput) or a light bar with a dashed outline (the baseline's latency).
enum class swatch { filled, dashed_line, light_bar };

struct legend_entry {
  std::string name;
  const char* colour;
  swatch look = swatch::filled;
};

/// The frame of a chart: title, y axis with ticks and grid lines, x labels. Returns the scale.
struct frame {
  double y_top = 1;
  int height = chart_height;
  int plot_width = chart_width - margin_left - margin_right;
  int plot_height = chart_height - margin_top - margin_bottom;
  double y_at(double value) const { return margin_top + plot_height - value / y_top * plot_height; }
  double baseline_y() const { return margin_top + plot_height; }
};

/// Opens the <svg> of one chart; `kind` and `op` go into its class and data-operation, so that
/// a checker finds the chart without reading its title. Tall enough for `legend_rows` entries.
frame open_chart(std::ostringstream& svg, const std::string& kind, operation op,
                 const std::string& title, const std::string& y_label, double largest,
                 const std::vector<std::string>& x_labels, std::size_t legend_rows) {
  frame f;
  f.height = std::max(chart_height,
                      margin_top + 10 + static_cast<int>(legend_rows) * legend_row + margin_bottom);
  f.plot_height = f.height - margin_top - margin_bottom;
  const double step = tick_step(largest * 1.05);
  f.y_top = std::max(step, std::ceil(largest * 1.05 / step) * step);
  svg << "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart " << kind
      << "\" data-operation=\"" << to_string(op) << "\" width=\"" << chart_width << "\" height=\""
      << f.height << "\" viewBox=\"0 0 " << chart_width << " " << f.height
      << "\" role=\"img\" aria-label=\"" << text::escape_html(title) << "\">\n"
      << "<text x=\"" << margin_left << "\" y=\"18\" class=\"title\">" << text::escape_html(title)
      << "</text>\n";
  for (double tick = 0; tick <= f.y_top + step / 2; tick += step) {
    const double y = f.y_at(tick);
    svg << "<line x1=\"" << margin_left << "\" x2=\"" << margin_left + f.plot_width << "\" y1=\""
        << num(y) << "\" y2=\"" << num(y) << "\" class=\"grid\"/>"
        << "<text x=\"" << margin_left - 6 << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">"
        << text::escape_html(num(tick)) << "</text>\n";
  }
  svg << "<text x=\"14\" y=\"" << margin_top + f.plot_height / 2 << "\" transform=\"rotate(-90 14 "
      << margin_top + f.plot_height / 2 << ")\" text-anchor=\"middle\">"
      << text::escape_html(y_label) << "</text>\n";
  const double slot = static_cast<double>(f.plot_width) / std::max<std::size_t>(1, x_labels.size());
  for (std::size_t i = 0; i < x_labels.size(); ++i) {
    svg << "<text x=\"" << num(margin_left + slot * (static_cast<double>(i) + 0.5)) << "\" y=\""
        << margin_top + f.plot_height + 18 << "\" text-anchor=\"middle\">"
        << text::escape_html(x_labels[i]) << "</text>\n";
  }
  return f;
}

void legend(std::ostringstream& svg, const std::vector<legend_entry>& entries) {
  const int x = chart_width - margin_right + 14;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& entry = entries[i];
    const int y = margin_top + 10 + static_cast<int>(i) * legend_row;
    switch (entry.look) {
    case swatch::filled:
      svg << "<rect x=\"" << x << "\" y=\"" << y - 9 << "\" width=\"12\" height=\"12\" fill=\""
          << entry.colour << "\"/>";
      break;
    case swatch::dashed_line:
      svg << "<line x1=\"" << x - 4 << "\" x2=\"" << x + 16 << "\" y1=\"" << y - 3 << "\" y2=\""
          << y - 3 << "\" stroke=\"" << entry.colour
          << "\" stroke-width=\"2\" stroke-dasharray=\"5 3\"/><circle cx=\"" << x + 6 << "\" cy=\""
          << y - 3 << "\" r=\"3.5\" fill=\"#fff\" stroke=\"" << entry.colour
          << "\" stroke-width=\"1.5\"/>";
      break;
    case swatch::light_bar:
      svg << "<rect x=\"" << x << "\" y=\"" << y - 9 << "\" width=\"12\" height=\"12\" fill=\""
          << entry.colour << "\" fill-opacity=\"0.3\" stroke=\"" << entry.colour
          << "\" stroke-dasharray=\"3 2\"/>";
      break;
    }
    svg << "<text x=\"" << x + 18 << "\" y=\"" << y + 1 << "\">" << text::escape_html(entry.name)
        << "</text>\n";
  }
}

double median_of(const cell_summary& summary, figure f) {
  const auto& s = summary.figures[static_cast<std::size_t>(f)];
  return s ? s->median : 0;
}

/// The baseline's median of `f` for the cell, when the baseline has one.
std::optional<double> baseline_median(const bench_report& report, const cell& c, figure f) {
  // find_in: the one place that decides which of the baseline's cells is this one.
  const auto* earlier = find_in(report.earlier, c);
  if (earlier == nullptr) {
    return std::nullopt;
  }
  const auto& s = earlier->figures[static_cast<std::size_t>(f)];
  return s ? std::optional<double>(s->median) : std::nullopt;
}

/// Throughput against concurrency, one solid line per size; with a baseline, a dashed line per
/// size through the baseline's medians of the same cells (hollow dots).
std::string throughput_chart(const bench_report& report,
                             const std::vector<const cell_summary*>& cells, operation op) {
  const bool counts_bytes = op != operation::list && op != operation::delete_object;
  const figure shown = counts_bytes ? figure::mib_per_second : figure::ops_per_second;
  const std::string unit(info(shown).label);
  std::set<unsigned> levels;
  std::set<std::uint64_t> sizes;
  std::set<std::uint64_t> sizes_in_baseline;
  double largest = 0;
  for (const auto* c : cells) {
    levels.insert(c->measured.concurrency);
    sizes.insert(c->measured.size);
    largest = std::max(largest, median_of(*c, shown));
    if (const auto before = baseline_median(report, c->measured, shown)) {
      sizes_in_baseline.insert(c->measured.size);
      largest = std::max(largest, *before);
    }
  }
  std::vector<std::string> x_labels;
  for (const auto level : levels) {
    x_labels.push_back("c=" + std::to_string(level));
  }
  std::ostringstream svg;
  const auto f =
      open_chart(svg, "throughput", op, std::string(to_string(op)) + ": throughput by concurrency",
                 unit, largest, x_labels, sizes.size() + sizes_in_baseline.size());
  const double slot = static_cast<double>(f.plot_width) / static_cast<double>(levels.size());
  auto x_of = [&](const cell& c) {
    const auto position =
        static_cast<double>(std::distance(levels.begin(), levels.find(c.concurrency)));
    return margin_left + slot * (position + 0.5);
  };
  std::vector<legend_entry> entries;
  std::size_t series = 0;
  for (const auto size : sizes) {
    const char* colour = palette[series % 8];
    // The baseline first, so that this run's dots lie on top where both are equal.
    if (sizes_in_baseline.count(size) != 0) {
      std::string points;
      for (const auto* c : cells) {
        const auto before = baseline_median(report, c->measured, shown);
        if (c->measured.size != size || !before) {
          continue;
        }
        const double x = x_of(c->measured);
        const double y = f.y_at(*before);
        points += num(x) + "," + num(y) + " ";
        svg << "<circle class=\"baseline-mark\" cx=\"" << num(x) << "\" cy=\"" << num(y)
            << "\" r=\"3.5\" fill=\"#fff\" stroke=\"" << colour << "\" stroke-width=\"1.5\"><title>"
            << text::escape_html(describe(c->measured))
            << " (baseline): " << format_figure(shown, *before) << " " << text::escape_html(unit)
            << "</title></circle>\n";
      }
      svg << "<polyline class=\"baseline-line\" points=\"" << points << "\" fill=\"none\" stroke=\""
          << colour << "\" stroke-width=\"1.5\" stroke-dasharray=\"5 3\"/>\n";
    }
    std::string points;
    for (const auto* c : cells) {
      if (c->measured.size != size) {
        continue;
      }
      const double x = x_of(c->measured);
      const double y = f.y_at(median_of(*c, shown));
      points += num(x) + "," + num(y) + " ";
      svg << "<circle class=\"mark\" cx=\"" << num(x) << "\" cy=\"" << num(y)
          << "\" r=\"3.5\" fill=\"" << colour << "\"><title>"
          << text::escape_html(describe(c->measured)) << ": "
          << format_figure(shown, median_of(*c, shown)) << " " << text::escape_html(unit)
          << "</title></circle>\n";
    }
    svg << "<polyline points=\"" << points << "\" fill=\"none\" stroke=\"" << colour
        << "\" stroke-width=\"2\"/>\n";
    entries.push_back({format_size(size), colour});
    if (sizes_in_baseline.count(size) != 0) {
      entries.push_back({format_size(size) + " (baseline)", colour, swatch::dashed_line});
    }
    ++series;
  }
  legend(svg, entries);
  svg << "</svg>\n";
  return svg.str();
}

/// Latency p50, p90 and p99 per cell, as grouped bars; with a baseline, each bar has the
/// baseline's value right of it as a light bar with a dashed outline.
std::string latency_chart(const bench_report& report, const std::vector<const cell_summary*>& cells,
                          operation op) {
  constexpr figure shown[] = {figure::latency_p50_ms, figure::latency_p90_ms,
                              figure::latency_p99_ms};
  constexpr const char* percentiles[] = {"p50", "p90", "p99"};
  double largest = 0;
  bool overlay = false;
  std::vector<std::string> x_labels;
  for (const auto* c : cells) {
    for (const auto f : shown) {
      largest = std::max(largest, median_of(*c, f));
      if (const auto before = baseline_median(report, c->measured, f)) {
        overlay = true;
        largest = std::max(largest, *before);
      }
    }
    x_labels.push_back(format_size(c->measured.size) +
                       " c=" + std::to_string(c->measured.concurrency));
  }
  std::ostringstream svg;
  const auto f =
      open_chart(svg, "latency", op, std::string(to_string(op)) + ": latency percentiles", "ms",
                 largest, x_labels, overlay ? 6 : 3);
  const double slot = static_cast<double>(f.plot_width) / static_cast<double>(cells.size());
  const std::size_t bars_per_percentile = overlay ? 2 : 1;
  const double bar = slot * 0.8 / static_cast<double>(3 * bars_per_percentile);
  auto bar_at = [&](double x, double value, const char* colour, bool from_baseline,
                    const std::string& title) {
    const double y = f.y_at(value);
    svg << "<rect" << (from_baseline ? " class=\"baseline-mark\"" : " class=\"mark\"") << " x=\""
        << num(x) << "\" y=\"" << num(y) << "\" width=\"" << num(bar) << "\" height=\""
        << num(f.baseline_y() - y) << "\" fill=\"" << colour << "\"";
    if (from_baseline) {
      svg << " fill-opacity=\"0.3\" stroke=\"" << colour << "\" stroke-dasharray=\"3 2\"";
    }
    svg << "><title>" << text::escape_html(title) << "</title></rect>\n";
  };
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto& measured = cells[i]->measured;
    for (std::size_t k = 0; k < 3; ++k) {
      const double x = margin_left + slot * static_cast<double>(i) + slot * 0.1 +
                       bar * static_cast<double>(k * bars_per_percentile);
      const double value = median_of(*cells[i], shown[k]);
      bar_at(x, value, palette[k], false,
             describe(measured) + " " + column_title(shown[k]) + ": " +
                 format_figure(shown[k], value) + " ms");
      if (const auto before = baseline_median(report, measured, shown[k])) {
        bar_at(x + bar, *before, palette[k], true,
               describe(measured) + " " + column_title(shown[k]) +
                   " (baseline): " + format_figure(shown[k], *before) + " ms");
      }
    }
  }
  std::vector<legend_entry> entries;
  for (std::size_t k = 0; k < 3; ++k) {
    entries.push_back({percentiles[k], palette[k]});
  }
  if (overlay) {
    for (std::size_t k = 0; k < 3; ++k) {
      entries.push_back(
          {std::string(percentiles[k]) + " (baseline)", palette[k], swatch::light_bar});
    }
  }
  legend(svg, entries);
  svg << "</svg>\n";
  return svg.str();
}

/// One table cell holding a value of figure `f` of cell `c`, with the hooks for checkers.
std::string figure_td(const cell& c, figure f, std::string_view column, const std::string& text,
                      const char* css_class = nullptr) {
  std::string td = "<td";
  if (css_class != nullptr) {
    td += " class=\"" + std::string(css_class) + "\"";
  }
  td += " data-cell=\"" + text::escape_html(describe(c)) + "\" data-figure=\"" +
        std::string(info(f).key) + "\" data-column=\"" + std::string(column) + "\">" +
        text::escape_html(text) + "</td>";
  return td;
}

/// Operation, size and concurrency; the first two left-aligned, as the terminal prints them.
std::string cell_tds(const cell& c) {
  return "<td class=\"name\">" + std::string(to_string(c.op)) + "</td><td class=\"name\">" +
         format_size(c.size) + "</td><td>" + std::to_string(c.concurrency) + "</td>";
}

constexpr const char* cell_ths =
    "<th class=\"name\">operation</th><th class=\"name\">size</th><th>conc</th>";

std::string median_text(const cell_summary& summary, figure f) {
  const auto& s = summary.figures[static_cast<std::size_t>(f)];
  return s ? format_figure(f, s->median) : "-";
}

std::string range_text(const cell_summary& summary, figure f) {
  const auto& s = summary.figures[static_cast<std::size_t>(f)];
  return s ? "[" + format_figure(f, s->min) + ".." + format_figure(f, s->max) + "]" : "";
}

/// A table of medians, one row per cell; the throughput figures also get their range, in a
/// column of its own under the same heading (as the terminal prints them).
std::string medians_table(const bench_report& report, const std::string& caption,
                          const std::vector<figure>& columns) {
  std::ostringstream html;
  html << "<div class=\"scroll\"><table class=\"medians\">\n<caption>" << text::escape_html(caption)
       << "</caption>\n<tr>" << cell_ths;
  auto with_range = [](figure f) {
    return f == figure::mib_per_second || f == figure::ops_per_second;
  };
  for (const auto f : columns) {
    html << (with_range(f) ? "<th colspan=\"2\">" : "<th>") << text::escape_html(column_title(f))
         << (with_range(f) ? " [min..max]" : "") << "</th>";
  }
  html << "</tr>\n";
  for (const auto& summary : report.summaries) {
    html << "<tr>" << cell_tds(summary.measured);
    for (const auto f : columns) {
      html << figure_td(summary.measured, f, "median", median_text(summary, f));
      if (with_range(f)) {
        html << figure_td(summary.measured, f, "range", range_text(summary, f), "range");
      }
    }
    html << "</tr>\n";
  }
  html << "</table></div>\n";
  return html.str();
}

/// The terminal's medians table in two halves that each fit a page 1280 pixels wide, and, with
/// --store-pid, the store processes' table.
std::string summary_tables(const bench_report& report) {
  const auto& settings = *report.settings;
  const unsigned runs = settings.rounds * (settings.control ? 2 : 1);
  std::ostringstream html;
  html << "<h2>"
       << (runs == 1 ? "Figures of 1 run per cell"
                     : "Medians of " + std::to_string(runs) + " runs per cell")
       << (settings.control ? " (" + std::to_string(settings.rounds) + " rounds x 2 control runs)"
                            : "")
       << "</h2>\n<p>Throughput with its [min..max] over the runs; latency and TTFB in ms.</p>\n"
       << medians_table(report, "Throughput and latency",
                        {figure::mib_per_second, figure::ops_per_second, figure::latency_p50_ms,
                         figure::latency_p90_ms, figure::latency_p99_ms, figure::latency_max_ms})
       << medians_table(report, "Time to first byte, operations, errors and retries",
                        {figure::ttfb_p50_ms, figure::ttfb_p90_ms, figure::ttfb_p99_ms,
                         figure::ttfb_max_ms, figure::operations, figure::errors, figure::retries});
  if (any_store_figures(report.summaries)) {
    std::string pids;
    for (std::size_t i = 0; i < settings.store_pids.size(); ++i) {
      pids += (i == 0 ? " " : ", ") + std::to_string(settings.store_pids[i]);
    }
    html << medians_table(report,
                          "Store processes (pid" + pids + "), medians over the runs of each cell",
                          {figure::store_rss_max_mib, figure::store_rss_mean_mib,
                           figure::store_threads_max, figure::store_threads_mean,
                           figure::store_cpu_max_percent, figure::store_cpu_mean_percent});
  }
  return html.str();
}

/// With --control: the noise band of each compared figure, as the terminal prints it.
std::string noise_table(const bench_report& report) {
  const auto compared = compared_figures();
  std::ostringstream html;
  html << "<h2>Noise band (widest difference within a control pair, % of the level)</h2>\n"
       << "<div class=\"scroll\"><table class=\"noise\">\n<tr>" << cell_ths;
  for (const auto f : compared) {
    html << "<th>" << text::escape_html(column_title(f)) << " ±%</th>";
  }
  html << "</tr>\n";
  for (const auto& summary : report.summaries) {
    html << "<tr>" << cell_tds(summary.measured);
    for (const auto f : compared) {
      const auto& noise = summary.noise_percent[static_cast<std::size_t>(f)];
      html << figure_td(summary.measured, f, "noise", noise ? format_percent(*noise, false) : "-");
    }
    html << "</tr>\n";
  }
  html << "</table></div>\n";
  return html.str();
}

// The data-column of each of comparison_columns(), in their order.
constexpr const char* comparison_keys[] = {"baseline", "now", "delta",      "rounds",
                                           "interval", "p",   "detectable", "change"};

std::string baseline_table(const bench_report& report) {
  const auto& rules = report.settings->judging;
  std::ostringstream html;
  html << "<h2>Against the baseline " << text::escape_html(report.baseline_source) << "</h2>\n";
  for (const auto& mismatch : report.baseline_mismatches) {
    html << "<p class=\"warning\">warning: not measured as the baseline was: "
         << text::escape_html(mismatch) << "</p>\n";
  }
  html << "<p>Student's t on the logarithms of the rounds; false-alarm rate "
       << format_percent(100 * rules.alpha, false)
       << " % per figure; flagged when significant, beyond the control band and at least "
       << format_percent(rules.min_change_percent, false)
       << " %. 'detectable': the smallest drop and rise these rounds flag "
       << format_percent(100 * rules.power, false) << " % of the time.</p>\n"
       << "<div class=\"scroll\"><table class=\"baseline\">\n<tr>" << cell_ths
       << "<th class=\"name\">figure</th>";
  for (const auto& title : comparison_titles(rules)) {
    html << "<th>" << text::escape_html(title) << "</th>";
  }
  html << "</tr>\n";
  for_each_comparison(
      report.summaries,
      [&](const cell_summary& summary, figure f, const comparison& c) {
        const char* row_class = c.regression ? " class=\"worse\""
                                : !c.judged  ? " class=\"unjudged\""
                                             : "";
        html << "<tr" << row_class << ">" << cell_tds(summary.measured) << "<td class=\"name\">"
             << text::escape_html(column_title(f)) << "</td>";
        const auto columns = comparison_columns(f, c);
        for (std::size_t i = 0; i < columns.size(); ++i) {
          html << figure_td(summary.measured, f, comparison_keys[i], columns[i]);
        }
        html << "</tr>\n";
      },
      [&](const cell_summary& summary) {
        html << "<tr class=\"absent\">" << cell_tds(summary.measured)
             << "<td class=\"name\">-</td><td>-</td><td>-</td><td>-</td><td>-</td><td>-</td>"
             << "<td>-</td><td>-</td>"
             << "<td>not in the baseline</td></tr>\n";
      });
  html << "</table></div>\n";
  return html.str();
}

} // namespace

std::string html_report(const bench_report& report) {
  const auto& settings = *report.settings;
  std::ostringstream html;
  // The page fits a window 1280 pixels wide: charts shrink with it (two per row where they fit),
  // every table is at most 12 columns and scrolls inside its own box rather than widening the
  // page.
  html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       << "<title>s3fault bench " << text::escape_html(report.started_at) << "</title>\n<style>\n"
       << "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
       << ".scroll{max-width:100%;overflow-x:auto}\n"
       << "table{border-collapse:collapse;margin:0.3em 0 1.2em;font-size:14px;"
          "font-variant-numeric:tabular-nums}\n"
       << "caption{text-align:left;font-weight:bold;padding:0.3em 0}\n"
       << "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\n"
       << "td.name,th.name{text-align:left}\n"
       << "td.range{color:#555;font-size:12px}\n"
       << "tr.worse td{background:#fdd}\n"
       << "tr.unjudged td{background:#ffe8b0}\n"
       << "tr.absent td{color:#777}\n"
       << ".warning{color:#a40}\n"
       << ".charts{display:flex;flex-wrap:wrap;gap:0.5em 1em}\n"
       << ".charts svg{flex:1 1 560px;max-width:720px;height:auto;font-size:11px}\n"
       << "svg .title{font-size:13px;font-weight:bold}\n"
       << "svg .grid{stroke:#e4e4e4}\n</style>\n</head>\n<body>\n"
       << "<h1>s3fault bench</h1>\n<p>" << text::escape_html(report.endpoint) << ", bucket "
       << text::escape_html(report.bucket) << ", started " << text::escape_html(report.started_at)
       << "; " << settings.rounds << " rounds" << (settings.control ? " with control runs" : "")
       << ", "
       << (settings.count ? std::to_string(*settings.count) + " operations"
                          : num(settings.duration.count() / 1000.0) + " s")
       << " per run"
       << (settings.mix.empty() ? "" : "; mix " + text::escape_html(describe_mix(settings.mix)))
       << (report.interrupted ? "; interrupted" : "") << "; "
       << text::escape_html(verification_text(settings)) << ".</p>\n";
  if (report.earlier != nullptr) {
    html << "<p>Dashed lines with hollow dots, and light bars with a dashed outline: the "
            "medians of the baseline "
         << text::escape_html(report.baseline_source) << " for the same cells.</p>\n";
  }
  std::map<operation, std::vector<const cell_summary*>> by_operation;
  for (const auto& summary : report.summaries) {
    by_operation[summary.measured.op].push_back(&summary);
  }
  for (const auto& [op, cells] : by_operation) {
    html << "<h2>" << to_string(op) << "</h2>\n<div class=\"charts\">\n"
         << throughput_chart(report, cells, op) << latency_chart(report, cells, op) << "</div>\n";
  }
  html << summary_tables(report);
  if (any_noise(report.summaries)) {
    html << noise_table(report);
  }
  if (!report.baseline_source.empty()) {
    html << baseline_table(report);
  }
  html << "</body>\n</html>\n";
  return html.str();
}

} // namespace s3fault::bench
