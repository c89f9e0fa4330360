// The --html file: one self-contained page (no scripts, no external files). It opens with the
// bench's verdict, in the words the terminal ends with (bench_verdict.hpp); then, per operation
// and size, an inline SVG chart of throughput against concurrency and one of latency
// percentiles, with the baseline's medians and the control noise band overlaid when there are
// any; then the tables the terminal prints (medians, store processes, noise bands, the baseline
// comparison), with the same digits.
//
// Every table cell that holds a figure carries hooks for checkers (the page has no script):
//   <td data-cell="get 1MiB c=4" data-figure="mib_per_second" data-column="median">
// data-column says which value of the figure the cell holds: "median" or "range" in the medians
// tables, "noise" in the noise table, and baseline, now, delta, rounds, interval, p, detectable
// or change in the baseline table. Baseline marks in the charts have the class "baseline-mark",
// noise bands "noise-band"; each chart's <svg> says its data-operation, data-size and
// data-scale ("linear" or "log"). The verdict is the element of class "verdict".
#include "conformance/bench/bench_reports.hpp"

#include "conformance/bench/bench_verdict.hpp"
#include "conformance/bench/comparison_text.hpp"
#include "conformance/bench/workload.hpp"
#include "text/markup.hpp"
#include "text/text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <optional>
#include <sstream>

namespace s3fault::bench {
namespace {

// p50, p90, p99 in the latency charts; this run's throughput is the first.
constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c"};
constexpr const char* baseline_colour = "#444";
constexpr const char* band_colour = "#888";
constexpr int chart_width = 640;
constexpr int chart_height = 300; // at least; a long legend makes a chart taller
constexpr int margin_left = 70;
constexpr int margin_right = 160; // room for the legend
constexpr int margin_top = 30;
constexpr int margin_bottom = 45;
constexpr int legend_row = 18;
// A bar of a value above 0 is never drawn thinner than this: however small next to the chart's
// largest, it shows, and a baseline's hollow bar keeps its outline.
constexpr double least_bar_height = 3;
constexpr double least_bar_width = 5;

/// The rule the docs state: a chart whose largest median (this run's or the baseline's) is at
/// least this many times its smallest gets a log y axis. On a linear axis from 0 a run 20 times
/// slower than its baseline would lie flat on the axis.
constexpr double log_axis_spread = 10;

std::string num(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

/// An axis label: "0.25", "2000", "0.001", without trailing zeros.
std::string tick_label(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.7g", value);
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

/// The values a y axis spans, linear from 0 or logarithmic, with its tick values.
struct y_scale {
  bool log = false;
  double bottom = 0;
  double top = 1;
  std::vector<double> ticks;
};

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

/// The scale of a chart: decided by the medians it shows, wide enough for `extents` too (the
/// noise bands' edges).
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

/// How a legend entry is drawn: a filled square (this run), a dashed line with a hollow dot
/// (the baseline's throughput), a hollow bar (the baseline's latency), a grey box or an I-beam
/// (the noise band on a throughput or latency chart).
enum class swatch { filled, dashed_line, hollow_bar, band, i_beam };

struct legend_entry {
  std::string name;
  const char* colour;
  swatch look = swatch::filled;
};

/// The frame of a chart: where a value lands on the y axis.
struct frame {
  y_scale y;
  int height = chart_height;
  int plot_width = chart_width - margin_left - margin_right;
  int plot_height = chart_height - margin_top - margin_bottom;

  double bottom_y() const { return margin_top + plot_height; }
  /// Clamped into the plot: a band edge beyond the axis ends at its edge.
  double y_at(double value) const {
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
};

/// What a chart shows and where a checker finds it without reading its title.
struct chart_about {
  std::string kind; // "throughput" or "latency"
  cell key;         // operation, size and stored volume; concurrency unused
  std::string title;
  std::string y_label;
};

/// "get 1MiB", with --prefill "get 1MiB stored=4GiB".
std::string chart_name(const cell& key) {
  return std::string(to_string(key.op)) + " " + format_size(key.size) +
         (key.stored > 0 ? " stored=" + format_size(key.stored) : "");
}

/// Opens the <svg> of one chart with its title, y axis (ticks, grid lines, label saying a log
/// scale) and x labels. Tall enough for `legend_rows` entries.
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
    svg << "<text x=\"" << x + 18 << "\" y=\"" << y + 1 << "\">" << text::escape_html(entry.name)
        << "</text>\n";
  }
}

std::optional<double> median_of(const cell_summary& summary, figure f) {
  const auto& s = summary.figures[static_cast<std::size_t>(f)];
  return s ? std::optional<double>(s->median) : std::nullopt;
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

/// The control noise band of one figure of a cell, as drawn: the values within it are noise.
struct noise_span {
  double low = 0;
  double high = 0;
  double percent = 0;
  bool around_baseline = false;
};

/// With a baseline, the band the comparison was judged with (the wider of both benches'),
/// around the baseline's median: a median inside it was not flagged for being within the noise.
/// Without one (or for a cell the baseline lacks), this run's band around its own median. Only
/// the compared figures have one, as in the noise table.
std::optional<noise_span> noise_of(const bench_report& report, const cell_summary& summary,
                                   figure f) {
  if (!info(f).compared) {
    return std::nullopt;
  }
  const auto index = static_cast<std::size_t>(f);
  std::optional<double> percent;
  std::optional<double> centre;
  bool around_baseline = false;
  const auto& judged = summary.versus[index];
  const auto before = baseline_median(report, summary.measured, f);
  if (judged && judged->noise_band_percent && before) {
    percent = judged->noise_band_percent;
    centre = before;
    around_baseline = true;
  } else {
    percent = summary.noise_percent[index];
    centre = median_of(summary, f);
  }
  if (!percent || !centre || *centre <= 0) {
    return std::nullopt;
  }
  // The ratio the band allows either way (bench_statistics: band_as_log_ratio).
  const double ratio = std::exp(band_as_log_ratio(*percent));
  return noise_span{*centre / ratio, *centre * ratio, *percent, around_baseline};
}

/// The cells of one chart, by concurrency.
using chart_cells = std::vector<const cell_summary*>;

std::vector<std::string> concurrency_labels(const chart_cells& cells) {
  std::vector<std::string> labels;
  for (const auto* c : cells) {
    labels.push_back("c=" + std::to_string(c->measured.concurrency));
  }
  return labels;
}

/// Medians (this run's and the baseline's) and band edges of `figures` over the chart's cells.
void gather_values(const bench_report& report, const chart_cells& cells,
                   const std::vector<figure>& figures, std::vector<double>& medians,
                   std::vector<double>& extents) {
  for (const auto* c : cells) {
    for (const auto f : figures) {
      if (const auto now = median_of(*c, f)) {
        medians.push_back(*now);
      }
      if (const auto before = baseline_median(report, c->measured, f)) {
        medians.push_back(*before);
      }
      if (const auto band = noise_of(report, *c, f)) {
        extents.push_back(band->low);
        extents.push_back(band->high);
      }
    }
  }
}

std::string band_title(const cell& c, figure f, const noise_span& band) {
  return describe(c) + " " + column_title(f) + ": control noise band ±" +
         format_percent(band.percent, false) + " % around " +
         (band.around_baseline ? "the baseline" : "this run") + " (" + format_figure(f, band.low) +
         " to " + format_figure(f, band.high) + ")";
}

/// A grey box over the values within the noise band, `width` wide and centred on `x`.
void draw_band(std::ostringstream& svg, const frame& f, double x, double width,
               const noise_span& band, const std::string& title) {
  const double top = f.y_at(band.high);
  const double height = std::max(2.0, f.y_at(band.low) - top);
  svg << "<rect class=\"noise-band\" x=\"" << num(x - width / 2) << "\" y=\"" << num(top)
      << "\" width=\"" << num(width) << "\" height=\"" << num(height) << "\" fill=\"" << band_colour
      << "\" fill-opacity=\"0.3\"><title>" << text::escape_html(title) << "</title></rect>\n";
}

/// Throughput against concurrency for one operation and size: this run's medians as a solid
/// line, the baseline's as a dashed line with hollow dots, and with --control the noise band
/// of each as a grey box.
std::string throughput_chart(const bench_report& report, const cell& key,
                             const chart_cells& cells) {
  const figure shown = key.op.workload().throughput_figure();
  const std::string unit(info(shown).label);
  std::vector<double> medians;
  std::vector<double> extents;
  gather_values(report, cells, {shown}, medians, extents);
  bool overlay = false;
  bool banded = false;
  for (const auto* c : cells) {
    overlay = overlay || baseline_median(report, c->measured, shown).has_value();
    banded = banded || noise_of(report, *c, shown).has_value();
  }
  std::ostringstream svg;
  const auto f = open_chart(svg, {"throughput", key, chart_name(key) + ": throughput", unit},
                            scale_for(medians, extents), concurrency_labels(cells),
                            1 + (overlay ? 1 : 0) + (banded ? 1 : 0));
  const double slot = static_cast<double>(f.plot_width) / static_cast<double>(cells.size());
  auto x_at = [&](std::size_t i) { return margin_left + slot * (static_cast<double>(i) + 0.5); };
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (const auto band = noise_of(report, *cells[i], shown)) {
      draw_band(svg, f, x_at(i), std::min(28.0, slot * 0.5), *band,
                band_title(cells[i]->measured, shown, *band));
    }
  }
  // The baseline first, so that this run's dots lie on top where both are equal.
  std::string baseline_points;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto before = baseline_median(report, cells[i]->measured, shown);
    if (!before) {
      continue;
    }
    const double y = f.y_at(*before);
    baseline_points += num(x_at(i)) + "," + num(y) + " ";
    svg << "<circle class=\"baseline-mark\" cx=\"" << num(x_at(i)) << "\" cy=\"" << num(y)
        << "\" r=\"4\" fill=\"#fff\" stroke=\"" << baseline_colour
        << "\" stroke-width=\"2\"><title>" << text::escape_html(describe(cells[i]->measured))
        << " (baseline): " << format_figure(shown, *before) << " " << text::escape_html(unit)
        << "</title></circle>\n";
  }
  if (overlay) {
    svg << "<polyline class=\"baseline-line\" points=\"" << baseline_points
        << "\" fill=\"none\" stroke=\"" << baseline_colour
        << "\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n";
  }
  std::string points;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const double value = median_of(*cells[i], shown).value_or(0);
    const double y = f.y_at(value);
    points += num(x_at(i)) + "," + num(y) + " ";
    svg << "<circle class=\"mark\" cx=\"" << num(x_at(i)) << "\" cy=\"" << num(y)
        << "\" r=\"4\" fill=\"" << palette[0] << "\"><title>"
        << text::escape_html(describe(cells[i]->measured)) << ": " << format_figure(shown, value)
        << " " << text::escape_html(unit) << "</title></circle>\n";
  }
  svg << "<polyline points=\"" << points << "\" fill=\"none\" stroke=\"" << palette[0]
      << "\" stroke-width=\"2.5\"/>\n";
  std::vector<legend_entry> entries{{"this run", palette[0]}};
  if (overlay) {
    entries.push_back({"baseline", baseline_colour, swatch::dashed_line});
  }
  if (banded) {
    entries.push_back({"± control noise", band_colour, swatch::band});
  }
  legend(svg, entries);
  svg << "</svg>\n";
  return svg.str();
}

/// One bar from the axis up to `value`; the baseline's hollow with a solid outline, so that it
/// stands apart from this run's solid bar beside it at any height.
void draw_bar(std::ostringstream& svg, const frame& f, double x, double width, double value,
              const char* colour, bool from_baseline, const std::string& title) {
  double top = f.y_at(value);
  if (value > 0) {
    top = std::min(top, f.bottom_y() - least_bar_height);
  }
  svg << "<rect" << (from_baseline ? " class=\"baseline-mark\"" : " class=\"mark\"") << " x=\""
      << num(x) << "\" y=\"" << num(top) << "\" width=\"" << num(width) << "\" height=\""
      << num(f.bottom_y() - top) << "\" fill=\"" << colour << "\"";
  if (from_baseline) {
    svg << " fill-opacity=\"0.12\" stroke=\"" << colour << "\" stroke-width=\"2\"";
  }
  svg << "><title>" << text::escape_html(title) << "</title></rect>\n";
}

/// An I-beam over a bar from the band's low to its high value.
void draw_band_whisker(std::ostringstream& svg, const frame& f, double centre, double width,
                       const noise_span& band, const std::string& title) {
  const double top = f.y_at(band.high);
  const double bottom = f.y_at(band.low);
  const double half = width / 2;
  svg << "<path class=\"noise-band\" d=\"M" << num(centre - half) << " " << num(top) << "H"
      << num(centre + half) << "M" << num(centre) << " " << num(top) << "V" << num(bottom) << "M"
      << num(centre - half) << " " << num(bottom) << "H" << num(centre + half)
      << "\" stroke=\"#222\" stroke-width=\"1.5\" fill=\"none\"><title>" << text::escape_html(title)
      << "</title></path>\n";
}

/// Latency p50, p90 and p99 per concurrency for one operation and size, as grouped bars; with a
/// baseline, each bar has the baseline's value right of it as a hollow bar; with --control, the
/// noise band of the compared percentiles as an I-beam.
std::string latency_chart(const bench_report& report, const cell& key, const chart_cells& cells) {
  const std::vector<figure> shown = {figure::latency_p50_ms, figure::latency_p90_ms,
                                     figure::latency_p99_ms};
  constexpr const char* percentiles[] = {"p50", "p90", "p99"};
  std::vector<double> medians;
  std::vector<double> extents;
  gather_values(report, cells, shown, medians, extents);
  bool overlay = false;
  bool banded = false;
  for (const auto* c : cells) {
    for (const auto f : shown) {
      overlay = overlay || baseline_median(report, c->measured, f).has_value();
      banded = banded || noise_of(report, *c, f).has_value();
    }
  }
  std::ostringstream svg;
  const auto f = open_chart(svg, {"latency", key, chart_name(key) + ": latency percentiles", "ms"},
                            scale_for(medians, extents), concurrency_labels(cells),
                            (overlay ? 6 : 3) + (banded ? 1 : 0));
  const double slot = static_cast<double>(f.plot_width) / static_cast<double>(cells.size());
  const std::size_t bars_per_percentile = overlay ? 2 : 1;
  const double bar =
      std::max(least_bar_width, slot * 0.8 / static_cast<double>(3 * bars_per_percentile));
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const auto& measured = cells[i]->measured;
    for (std::size_t k = 0; k < shown.size(); ++k) {
      const double x = margin_left + slot * static_cast<double>(i) + slot * 0.1 +
                       bar * static_cast<double>(k * bars_per_percentile);
      const double value = median_of(*cells[i], shown[k]).value_or(0);
      draw_bar(svg, f, x, bar, value, palette[k], false,
               describe(measured) + " " + column_title(shown[k]) + ": " +
                   format_figure(shown[k], value) + " ms");
      const auto before = baseline_median(report, measured, shown[k]);
      if (before) {
        draw_bar(svg, f, x + bar, bar, *before, palette[k], true,
                 describe(measured) + " " + column_title(shown[k]) +
                     " (baseline): " + format_figure(shown[k], *before) + " ms");
      }
      if (const auto band = noise_of(report, *cells[i], shown[k])) {
        const double centre = band->around_baseline ? x + bar * 1.5 : x + bar / 2;
        draw_band_whisker(svg, f, centre, std::max(4.0, bar * 0.6), *band,
                          band_title(measured, shown[k], *band));
      }
    }
  }
  std::vector<legend_entry> entries;
  for (std::size_t k = 0; k < shown.size(); ++k) {
    entries.push_back({percentiles[k], palette[k]});
  }
  if (overlay) {
    for (std::size_t k = 0; k < shown.size(); ++k) {
      entries.push_back(
          {std::string(percentiles[k]) + " (baseline)", palette[k], swatch::hollow_bar});
    }
  }
  if (banded) {
    entries.push_back({"± control noise", "#222", swatch::i_beam});
  }
  legend(svg, entries);
  svg << "</svg>\n";
  return svg.str();
}

/// The cells of one chart (of each kind): one operation, size and stored volume.
struct chart_group {
  cell key; // its concurrency unused
  chart_cells cells;
};

/// The charts, in the order of the cells (as the tables list them), each chart's cells by
/// concurrency. Small multiples, each with its own scale: a 1 MiB line never hides under a
/// 10 MiB one.
std::vector<chart_group> cells_by_chart(const bench_report& report) {
  std::vector<chart_group> charts;
  for (const auto& summary : report.summaries) {
    const auto& c = summary.measured;
    auto same_chart = [&](const chart_group& g) {
      return g.key.op == c.op && g.key.size == c.size && g.key.stored == c.stored;
    };
    auto found = std::find_if(charts.begin(), charts.end(), same_chart);
    if (found == charts.end()) {
      charts.push_back({{c.op, c.size, 0, c.stored}, {}});
      found = std::prev(charts.end());
    }
    found->cells.push_back(&summary);
  }
  for (auto& chart : charts) {
    std::stable_sort(chart.cells.begin(), chart.cells.end(), [](const auto* a, const auto* b) {
      return a->measured.concurrency < b->measured.concurrency;
    });
  }
  return charts;
}

/// Per operation a heading, then per size its throughput and latency charts side by side.
std::string charts_section(const bench_report& report) {
  std::ostringstream html;
  std::optional<operation> heading;
  for (const auto& chart : cells_by_chart(report)) {
    if (heading != chart.key.op) {
      html << "<h2>" << to_string(chart.key.op) << "</h2>\n";
      heading = chart.key.op;
    }
    html << "<div class=\"charts\">\n"
         << throughput_chart(report, chart.key, chart.cells)
         << latency_chart(report, chart.key, chart.cells) << "</div>\n";
  }
  return html.str();
}

/// The verdict, first on the page, in the terminal's words: its headline, then one line per
/// figure that decided it.
std::string verdict_section(const bench_report& report) {
  const auto verdict = verdict_of(report);
  using outcome = bench_verdict::outcome;
  const char* look = verdict.decided == outcome::regressed      ? "regressed"
                     : verdict.decided == outcome::not_judged   ? "not-judged"
                     : verdict.decided == outcome::inconclusive ? "inconclusive"
                     : verdict.decided == outcome::passed       ? "passed"
                     : verdict.decided == outcome::judged       ? "judged"
                                                                : "no-verdict";
  std::ostringstream html;
  html << "<section class=\"verdict " << look << "\">\n<p class=\"headline\">"
       << text::escape_html(verdict.headline) << "</p>\n";
  if (!verdict.details.empty()) {
    // Many lines read better in two columns than in a list longer than the window.
    html << "<ul class=\"details" << (verdict.details.size() > 8 ? " many" : "") << "\">\n";
    for (const auto& line : verdict.details) {
      html << "<li>" << text::escape_html(line) << "</li>\n";
    }
    html << "</ul>\n";
  }
  html << "</section>\n";
  return html.str();
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
  std::ostringstream html;
  html << "<h2 class=\"medians-heading\">" << text::escape_html(medians_heading(report))
       << "</h2>\n<p>Throughput with its [min..max] over the runs; latency and TTFB in ms.</p>\n"
       << medians_table(report, "Throughput and latency",
                        {figure::mib_per_second, figure::ops_per_second, figure::latency_p50_ms,
                         figure::latency_p90_ms, figure::latency_p99_ms, figure::latency_max_ms})
       << medians_table(report, "Time to first byte, operations, errors and retries",
                        {figure::ttfb_p50_ms, figure::ttfb_p90_ms, figure::ttfb_p99_ms,
                         figure::ttfb_max_ms, figure::operations, figure::errors, figure::retries});
  if (any_store_figures(report.summaries)) {
    html << medians_table(report,
                          "Store processes (" + sampled_processes(settings) +
                              "), medians over the runs of each cell",
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
  for (const auto& title : comparison_titles(rules, report.reference, "")) {
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
        const auto columns = comparison_columns(f, c, report.reference);
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

// The page fits a window 1280 pixels wide: charts shrink with it (two per row where they fit),
// every table is at most 12 columns and scrolls inside its own box rather than widening the
// page.
constexpr const char* page_style =
    "body{font-family:system-ui,sans-serif;margin:2em;color:#222}\n"
    ".scroll{max-width:100%;overflow-x:auto}\n"
    "table{border-collapse:collapse;margin:0.3em 0 1.2em;font-size:14px;"
    "font-variant-numeric:tabular-nums}\n"
    "caption{text-align:left;font-weight:bold;padding:0.3em 0}\n"
    "td,th{border:1px solid #ccc;padding:3px 8px;text-align:right}\n"
    "td.name,th.name{text-align:left}\n"
    "td.range{color:#555;font-size:12px}\n"
    "tr.worse td{background:#fdd}\n"
    "tr.unjudged td{background:#ffe8b0}\n"
    "tr.absent td{color:#777}\n"
    ".warning{color:#a40}\n"
    ".charts{display:flex;flex-wrap:wrap;gap:0.5em 1em}\n"
    ".charts svg{flex:1 1 560px;max-width:720px;height:auto;font-size:11px}\n"
    "svg .title{font-size:13px;font-weight:bold}\n"
    "svg .grid{stroke:#e4e4e4}\n"
    "svg .axis{fill:#555}\n"
    ".verdict{border-left:8px solid #888;background:#f2f2f2;padding:0.6em 1em;margin:0.5em 0 1em}\n"
    ".verdict .headline{font-size:1.35em;font-weight:bold;margin:0}\n"
    ".verdict ul{margin:0.4em 0 0;padding-left:1.4em;font-size:14px;"
    "font-variant-numeric:tabular-nums}\n"
    ".verdict ul.many{columns:2;column-gap:2.5em}\n"
    ".verdict.regressed{border-color:#c62828;background:#fdecea}\n"
    ".verdict.not-judged{border-color:#e09000;background:#fff4dc}\n"
    ".verdict.inconclusive{border-color:#e09000;background:#fff4dc}\n"
    ".verdict.judged{border-color:#1f5fa8;background:#e8f0fa}\n"
    ".verdict.passed{border-color:#2e7d32;background:#e9f6ea}\n";

/// Where and how the bench ran, with the rounds that ran.
std::string settings_paragraph(const bench_report& report) {
  const auto& settings = *report.settings;
  std::ostringstream html;
  html << "<p>" << text::escape_html(describe_stores(report)) << ", started "
       << text::escape_html(report.started_at) << "; <span class=\"rounds\">"
       << text::escape_html(rounds_text(report)) << "</span>"
       << (settings.control ? " with control runs" : "") << ", "
       << (settings.count ? std::to_string(*settings.count) + " operations"
                          : num(settings.duration.count() / 1000.0) + " s")
       << " per run"
       << (settings.mix.empty() ? "" : "; mix " + text::escape_html(describe_mix(settings.mix)))
       << (report.interrupted ? "; interrupted" : "") << "; "
       << text::escape_html(verification_text(settings)) << ".</p>\n";
  return html.str();
}

/// How to read the charts: the scales, the baseline's marks, the noise band.
std::string charts_key(const bench_report& report) {
  std::ostringstream html;
  html << "<p>One chart of each kind per operation and size, each with its own y axis; an axis "
          "is logarithmic (said in its title) where the chart's largest median is at least "
       << tick_label(log_axis_spread) << " times its smallest.";
  if (report.earlier != nullptr) {
    html << " Dashed grey lines with hollow dots, and hollow bars: the medians of the baseline "
         << text::escape_html(report.baseline_source) << " for the same cells.";
  }
  if (any_noise(report.summaries)) {
    html << " Grey boxes and black I-beams: the control noise band"
         << (report.earlier != nullptr
                 ? " the comparison was judged with, around the baseline (a change that stays "
                   "inside it is not flagged), or around this run for a cell the baseline lacks"
                 : ", around this run's median")
         << ".";
  }
  html << "</p>\n";
  return html.str();
}

} // namespace

std::string html_report(const bench_report& report) {
  std::ostringstream html;
  html << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
       << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
       << "<title>s3fault bench " << text::escape_html(report.started_at) << "</title>\n<style>\n"
       << page_style << "</style>\n</head>\n<body>\n<h1>s3fault bench</h1>\n"
       << verdict_section(report) << settings_paragraph(report) << charts_key(report)
       << charts_section(report) << summary_tables(report);
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
