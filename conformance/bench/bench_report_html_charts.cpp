// The charts of the --html page, per operation and size (small multiples, each with its own
// scale: a 1 MiB line never hides under a 10 MiB one): throughput against concurrency, and
// latency p50/p90/p99 per concurrency as grouped bars.
//
//   one store:     a line (throughput); bars coloured by percentile (latency)
//   several:       a line per store, each dot with an I-beam from its rounds' min to max;
//                  per concurrency a group of bars per store, in its colour, the percentiles
//                  told apart by shade
//   --baseline:    the baseline's medians overlaid (dashed line, hollow bars)
//   --control:     the noise band of each compared figure (grey box, black I-beam)
//
// Marks have the class "mark" (with several stores also data-store), the baseline's
// "baseline-mark", noise bands "noise-band", the rounds' spread "spread".
#include "conformance/bench/bench_report_html.hpp"

#include "conformance/bench/workload.hpp"
#include "text/markup.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <optional>

namespace s3fault::bench::html_page {
namespace {

// p50, p90, p99 in the one-store latency chart.
constexpr const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c"};
// With several stores: a store's p50, p90 and p99 bars, in its colour, lighter and lighter.
constexpr double percentile_shades[] = {1, 0.6, 0.3};
constexpr const char* percentile_names[] = {"p50", "p90", "p99"};
constexpr const char* neutral_colour = "#555"; // the shades' legend, whatever the store
constexpr const char* baseline_colour = "#444";
constexpr const char* band_colour = "#888";
// A bar of a value above 0 is never drawn thinner than this: however small next to the chart's
// largest, it shows, and a baseline's hollow bar keeps its outline.
constexpr double least_bar_height = 3;
constexpr double least_bar_width = 5;
// How far apart the stores' dots of one concurrency are drawn, so that equal ones both show.
constexpr double store_dodge = 7;

const std::vector<figure> latency_figures = {figure::latency_p50_ms, figure::latency_p90_ms,
                                             figure::latency_p99_ms};

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

/// The cells of one chart (of each kind): one operation, size and stored volume, per store,
/// by concurrency.
struct chart_group {
  cell key; // its concurrency unused
  std::vector<unsigned> concurrencies;
  /// [store][i]: the store's summary at concurrencies[i], nullptr where it has none.
  std::vector<std::vector<const cell_summary*>> by_store;
};

std::vector<std::string> concurrency_labels(const chart_group& group) {
  std::vector<std::string> labels;
  for (const unsigned c : group.concurrencies) {
    labels.push_back("c=" + std::to_string(c));
  }
  return labels;
}

/// What a chart's scale must hold: medians (this run's and the baseline's) and the extents
/// drawn around them (band edges; with several stores, the rounds' min and max).
struct chart_values {
  std::vector<double> medians;
  std::vector<double> extents;
};

chart_values gather_values(const bench_report& report, const chart_group& group,
                           const std::vector<figure>& figures) {
  chart_values values;
  for (const auto& series : group.by_store) {
    for (const auto* c : series) {
      if (c == nullptr) {
        continue;
      }
      for (const auto f : figures) {
        if (const auto now = median_of(*c, f)) {
          values.medians.push_back(*now);
        }
        if (const auto before = baseline_median(report, c->measured, f)) {
          values.medians.push_back(*before);
        }
        if (const auto band = noise_of(report, *c, f)) {
          values.extents.push_back(band->low);
          values.extents.push_back(band->high);
        }
        const auto& s = c->figures[static_cast<std::size_t>(f)];
        if (several_stores(report) && s) {
          values.extents.push_back(s->min);
          values.extents.push_back(s->max);
        }
      }
    }
  }
  return values;
}

/// Whether any cell of the chart has a baseline value, or a noise band, of one of `figures`.
bool any_baseline(const bench_report& report, const chart_group& group,
                  const std::vector<figure>& figures) {
  for (const auto& series : group.by_store) {
    for (const auto* c : series) {
      for (const auto f : figures) {
        if (c != nullptr && baseline_median(report, c->measured, f)) {
          return true;
        }
      }
    }
  }
  return false;
}

bool any_band(const bench_report& report, const chart_group& group,
              const std::vector<figure>& figures) {
  for (const auto& series : group.by_store) {
    for (const auto* c : series) {
      for (const auto f : figures) {
        if (c != nullptr && noise_of(report, *c, f)) {
          return true;
        }
      }
    }
  }
  return false;
}

/// The hooks of a mark: with several stores, data-store (one store's page is as it was).
std::string store_hook(const bench_report& report, const cell_summary& summary) {
  return several_stores(report)
             ? " data-store=\"" + text::escape_html(report.stores[summary.store].name) + "\""
             : "";
}

/// A series' name in a legend: the store's, the reference's marked as such.
std::string series_name(const bench_report& report, std::size_t store) {
  return report.stores[store].name +
         (store == 0 && report.reference == reference_kind::store ? " (reference)" : "");
}

std::string band_title(const bench_report& report, const cell_summary& summary, figure f,
                       const noise_span& band) {
  return describe(report, summary) + " " + column_title(f) + ": control noise band ±" +
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

/// An I-beam at `centre` from `low` to `high`: a noise band over a bar, or a store's rounds.
/// `hooks` (its class and data-) come before the path, `stroke` (its attributes) after.
void draw_i_beam(std::ostringstream& svg, const frame& f, double centre, double width, double low,
                 double high, const std::string& hooks, const std::string& stroke,
                 const std::string& title) {
  const double top = f.y_at(high);
  const double bottom = f.y_at(low);
  const double half = width / 2;
  svg << "<path" << hooks << " d=\"M" << num(centre - half) << " " << num(top) << "H"
      << num(centre + half) << "M" << num(centre) << " " << num(top) << "V" << num(bottom) << "M"
      << num(centre - half) << " " << num(bottom) << "H" << num(centre + half) << "\"" << stroke
      << " fill=\"none\"><title>" << text::escape_html(title) << "</title></path>\n";
}

/// The baseline's throughput: a dashed grey line through hollow dots, drawn first, so that
/// this run's dots lie on top where both are equal.
void draw_baseline_line(std::ostringstream& svg, const bench_report& report,
                        const chart_group& group, const frame& f, figure shown,
                        const std::vector<double>& x_at) {
  const std::string unit(info(shown).label);
  std::string points;
  bool any = false;
  for (std::size_t i = 0; i < group.concurrencies.size(); ++i) {
    // The baseline's cell is the same for every store's: the first store's names it.
    const auto* summary = group.by_store.front()[i];
    const auto before =
        summary != nullptr ? baseline_median(report, summary->measured, shown) : std::nullopt;
    if (!before) {
      continue;
    }
    any = true;
    const double y = f.y_at(*before);
    points += num(x_at[i]) + "," + num(y) + " ";
    svg << "<circle class=\"baseline-mark\" cx=\"" << num(x_at[i]) << "\" cy=\"" << num(y)
        << "\" r=\"4\" fill=\"#fff\" stroke=\"" << baseline_colour
        << "\" stroke-width=\"2\"><title>" << text::escape_html(describe(summary->measured))
        << " (baseline): " << format_figure(shown, *before) << " " << text::escape_html(unit)
        << "</title></circle>\n";
  }
  if (any) {
    svg << "<polyline class=\"baseline-line\" points=\"" << points << "\" fill=\"none\" stroke=\""
        << baseline_colour << "\" stroke-width=\"2\" stroke-dasharray=\"6 4\"/>\n";
  }
}

/// One store's throughput line: a dot per concurrency, with several stores each with an
/// I-beam from the min to the max of its rounds.
void draw_throughput_series(std::ostringstream& svg, const bench_report& report,
                            const std::vector<const cell_summary*>& series, std::size_t store,
                            const frame& f, figure shown, const std::vector<double>& x_at) {
  const std::string unit(info(shown).label);
  const char* colour = store_colour(store);
  std::string points;
  for (std::size_t i = 0; i < series.size(); ++i) {
    if (series[i] == nullptr) {
      continue;
    }
    const auto& summary = *series[i];
    const auto& rounds = summary.figures[static_cast<std::size_t>(shown)];
    if (several_stores(report) && rounds) {
      draw_i_beam(svg, f, x_at[i], 6, rounds->min, rounds->max,
                  " class=\"spread\"" + store_hook(report, summary),
                  " stroke=\"" + std::string(colour) + "\" stroke-width=\"1.2\"",
                  describe(report, summary) + ": " + unit + " of the " +
                      std::to_string(rounds->samples) + " rounds from " +
                      format_figure(shown, rounds->min) + " to " +
                      format_figure(shown, rounds->max));
    }
    const double value = median_of(summary, shown).value_or(0);
    const double y = f.y_at(value);
    points += num(x_at[i]) + "," + num(y) + " ";
    svg << "<circle class=\"mark\"" << store_hook(report, summary) << " cx=\"" << num(x_at[i])
        << "\" cy=\"" << num(y) << "\" r=\"4\" fill=\"" << colour << "\"><title>"
        << text::escape_html(describe(report, summary)) << ": " << format_figure(shown, value)
        << " " << text::escape_html(unit) << "</title></circle>\n";
  }
  svg << "<polyline points=\"" << points << "\" fill=\"none\" stroke=\"" << colour
      << "\" stroke-width=\"2.5\"/>\n";
}

/// The throughput chart's legend: each store and the rounds' I-beam, or "this run"; then the
/// baseline's and the noise band's marks where there are any.
std::vector<legend_entry> throughput_legend(const bench_report& report, std::size_t stores,
                                            bool overlay, bool banded) {
  std::vector<legend_entry> entries;
  if (several_stores(report)) {
    for (std::size_t s = 0; s < stores; ++s) {
      entries.push_back({series_name(report, s), store_colour(s)});
    }
    entries.push_back({"rounds' min..max", neutral_colour, swatch::i_beam});
  } else {
    entries.push_back({"this run", store_colour(0)});
  }
  if (overlay) {
    entries.push_back({"baseline", baseline_colour, swatch::dashed_line});
  }
  if (banded) {
    entries.push_back({"± control noise", band_colour, swatch::band});
  }
  return entries;
}

/// Per store, the x of its dot at each concurrency: the stores a few pixels apart, so that
/// equal dots and their I-beams all show.
std::vector<std::vector<double>> dot_positions(const chart_group& group, const frame& f) {
  const std::size_t stores = group.by_store.size();
  const double slot =
      static_cast<double>(f.plot_width) / static_cast<double>(group.concurrencies.size());
  std::vector<std::vector<double>> x_at(stores);
  for (std::size_t s = 0; s < stores; ++s) {
    const double dodge =
        (static_cast<double>(s) - static_cast<double>(stores - 1) / 2) * store_dodge;
    for (std::size_t i = 0; i < group.concurrencies.size(); ++i) {
      x_at[s].push_back(margin_left + slot * (static_cast<double>(i) + 0.5) + dodge);
    }
  }
  return x_at;
}

/// With --control, a grey box per dot over its noise band, narrower with more stores.
void draw_throughput_bands(std::ostringstream& svg, const bench_report& report,
                           const chart_group& group, const frame& f, figure shown,
                           const std::vector<std::vector<double>>& x_at) {
  const std::size_t stores = group.by_store.size();
  const double slot =
      static_cast<double>(f.plot_width) / static_cast<double>(group.concurrencies.size());
  const double band_width = std::min(28.0, slot * 0.5) / static_cast<double>(stores);
  for (std::size_t s = 0; s < stores; ++s) {
    for (std::size_t i = 0; i < group.concurrencies.size(); ++i) {
      const auto* summary = group.by_store[s][i];
      const auto band = summary != nullptr ? noise_of(report, *summary, shown) : std::nullopt;
      if (band) {
        draw_band(svg, f, x_at[s][i], band_width, *band,
                  band_title(report, *summary, shown, *band));
      }
    }
  }
}

/// Throughput against concurrency for one operation and size: a line per store, the
/// baseline's as a dashed line with hollow dots, and with --control the noise band of each
/// as a grey box.
std::string throughput_chart(const bench_report& report, const chart_group& group) {
  const figure shown = group.key.op.workload().throughput_figure();
  const auto values = gather_values(report, group, {shown});
  const auto entries =
      throughput_legend(report, group.by_store.size(), any_baseline(report, group, {shown}),
                        any_band(report, group, {shown}));
  std::ostringstream svg;
  const auto f = open_chart(svg,
                            {"throughput", group.key, chart_name(group.key) + ": throughput",
                             std::string(info(shown).label)},
                            scale_for(values.medians, values.extents), concurrency_labels(group),
                            entries.size());
  const auto x_at = dot_positions(group, f);
  draw_throughput_bands(svg, report, group, f, shown, x_at);
  draw_baseline_line(svg, report, group, f, shown, x_at.front());
  for (std::size_t s = 0; s < group.by_store.size(); ++s) {
    draw_throughput_series(svg, report, group.by_store[s], s, f, shown, x_at[s]);
  }
  legend(svg, entries);
  svg << "</svg>\n";
  return svg.str();
}

/// How a bar is drawn: this run's solid (with several stores lighter for p90 and p99, with an
/// outline), the baseline's hollow with a solid outline, so that it stands apart from a solid
/// bar beside it at any height.
struct bar_look {
  const char* colour;
  double opacity = 1;
  bool from_baseline = false;
};

/// One bar from the axis up to `value`.
void draw_bar(std::ostringstream& svg, const frame& f, double x, double width, double value,
              const bar_look& look, const std::string& hooks, const std::string& title) {
  double top = f.y_at(value);
  if (value > 0) {
    top = std::min(top, f.bottom_y() - least_bar_height);
  }
  svg << "<rect" << (look.from_baseline ? " class=\"baseline-mark\"" : " class=\"mark\"") << hooks
      << " x=\"" << num(x) << "\" y=\"" << num(top) << "\" width=\"" << num(width) << "\" height=\""
      << num(f.bottom_y() - top) << "\" fill=\"" << look.colour << "\"";
  if (look.from_baseline) {
    svg << " fill-opacity=\"0.12\" stroke=\"" << look.colour << "\" stroke-width=\"2\"";
  } else if (look.opacity < 1) {
    svg << " fill-opacity=\"" << look.opacity << "\" stroke=\"" << look.colour << "\"";
  }
  svg << "><title>" << text::escape_html(title) << "</title></rect>\n";
}

/// A black I-beam over a bar, from the noise band's low to its high value.
void draw_band_whisker(std::ostringstream& svg, const bench_report& report, const frame& f,
                       double centre, double width, const cell_summary& summary, figure shown) {
  if (const auto band = noise_of(report, summary, shown)) {
    draw_i_beam(svg, f, centre, width, band->low, band->high, " class=\"noise-band\"",
                " stroke=\"#222\" stroke-width=\"1.5\"", band_title(report, summary, shown, *band));
  }
}

/// "get 1MiB c=4 lat p50: 0.123 ms", "get 1MiB c=4 lat p50 (baseline): 0.100 ms".
std::string bar_title(const std::string& what, figure shown, double value,
                      const std::string& whose = "") {
  return what + " " + column_title(shown) + whose + ": " + format_figure(shown, value) + " ms";
}

/// One store: per concurrency p50, p90 and p99 side by side in their colours, each followed
/// by the baseline's hollow bar when there is one.
void draw_latency_one_store(std::ostringstream& svg, const bench_report& report,
                            const chart_group& group, const frame& f, bool overlay) {
  const auto& cells = group.by_store.front();
  const double slot = static_cast<double>(f.plot_width) / static_cast<double>(cells.size());
  const std::size_t bars_per_percentile = overlay ? 2 : 1;
  const double bar =
      std::max(least_bar_width, slot * 0.8 / static_cast<double>(3 * bars_per_percentile));
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (cells[i] == nullptr) {
      continue;
    }
    const auto& measured = cells[i]->measured;
    for (std::size_t k = 0; k < latency_figures.size(); ++k) {
      const figure shown = latency_figures[k];
      const double x = margin_left + slot * static_cast<double>(i) + slot * 0.1 +
                       bar * static_cast<double>(k * bars_per_percentile);
      const double value = median_of(*cells[i], shown).value_or(0);
      draw_bar(svg, f, x, bar, value, {palette[k]}, "",
               bar_title(describe(measured), shown, value));
      const auto before = baseline_median(report, measured, shown);
      if (before) {
        draw_bar(svg, f, x + bar, bar, *before, {palette[k], 1, true}, "",
                 bar_title(describe(measured), shown, *before, " (baseline)"));
      }
      const auto band = noise_of(report, *cells[i], shown);
      if (band) {
        const double centre = band->around_baseline ? x + bar * 1.5 : x + bar / 2;
        draw_band_whisker(svg, report, f, centre, std::max(4.0, bar * 0.6), *cells[i], shown);
      }
    }
  }
}

/// Several stores: per concurrency a group of three bars (p50, p90, p99) per store in its
/// colour, lighter and lighter, then the baseline's group of hollow bars when there is one.
void draw_latency_per_store(std::ostringstream& svg, const bench_report& report,
                            const chart_group& group, const frame& f, bool overlay) {
  const std::size_t count = group.concurrencies.size();
  const std::size_t groups = group.by_store.size() + (overlay ? 1 : 0);
  const double slot = static_cast<double>(f.plot_width) / static_cast<double>(count);
  // Three bars a group and half a bar between groups, over 80 % of the slot.
  const double bar =
      std::max(least_bar_width, slot * 0.8 / (3.5 * static_cast<double>(groups) - 0.5));
  auto x_of = [&](std::size_t i, std::size_t g, std::size_t k) {
    return margin_left + slot * static_cast<double>(i) + slot * 0.1 +
           bar * (3.5 * static_cast<double>(g) + static_cast<double>(k));
  };
  for (std::size_t i = 0; i < count; ++i) {
    for (std::size_t s = 0; s < group.by_store.size(); ++s) {
      const auto* summary = group.by_store[s][i];
      if (summary == nullptr) {
        continue;
      }
      for (std::size_t k = 0; k < latency_figures.size(); ++k) {
        const figure shown = latency_figures[k];
        const double value = median_of(*summary, shown).value_or(0);
        const double x = x_of(i, s, k);
        draw_bar(svg, f, x, bar, value, {store_colour(s), percentile_shades[k]},
                 store_hook(report, *summary), bar_title(describe(report, *summary), shown, value));
        draw_band_whisker(svg, report, f, x + bar / 2, std::max(4.0, bar * 0.6), *summary, shown);
      }
    }
    // The baseline's cell is the same for every store's: the first store's names it.
    const auto* first = group.by_store.front()[i];
    if (!overlay || first == nullptr) {
      continue;
    }
    for (std::size_t k = 0; k < latency_figures.size(); ++k) {
      const figure shown = latency_figures[k];
      if (const auto before = baseline_median(report, first->measured, shown)) {
        draw_bar(svg, f, x_of(i, groups - 1, k), bar, *before, {baseline_colour, 1, true}, "",
                 bar_title(describe(first->measured), shown, *before, " (baseline)"));
      }
    }
  }
}

/// The latency chart's legend: each store and the percentiles' shades, or with one store the
/// percentiles' colours; then the baseline's and the noise band's marks where there are any.
std::vector<legend_entry> latency_legend(const bench_report& report, std::size_t stores,
                                         bool overlay, bool banded) {
  std::vector<legend_entry> entries;
  if (several_stores(report)) {
    for (std::size_t s = 0; s < stores; ++s) {
      entries.push_back({series_name(report, s), store_colour(s)});
    }
    for (std::size_t k = 0; k < latency_figures.size(); ++k) {
      entries.push_back(
          {std::string(percentile_names[k]), neutral_colour, swatch::filled, percentile_shades[k]});
    }
    if (overlay) {
      entries.push_back({"baseline p50, p90, p99", baseline_colour, swatch::hollow_bar});
    }
  } else {
    for (std::size_t k = 0; k < latency_figures.size(); ++k) {
      entries.push_back({percentile_names[k], palette[k]});
    }
    if (overlay) {
      for (std::size_t k = 0; k < latency_figures.size(); ++k) {
        entries.push_back(
            {std::string(percentile_names[k]) + " (baseline)", palette[k], swatch::hollow_bar});
      }
    }
  }
  if (banded) {
    entries.push_back({"± control noise", "#222", swatch::i_beam});
  }
  return entries;
}

/// Latency p50, p90 and p99 per concurrency for one operation and size, as grouped bars; with a
/// baseline, its values as hollow bars; with --control, the noise band of the compared
/// percentiles as an I-beam.
std::string latency_chart(const bench_report& report, const chart_group& group) {
  const auto values = gather_values(report, group, latency_figures);
  const bool overlay = any_baseline(report, group, latency_figures);
  const auto entries = latency_legend(report, group.by_store.size(), overlay,
                                      any_band(report, group, latency_figures));
  std::ostringstream svg;
  const auto f = open_chart(
      svg, {"latency", group.key, chart_name(group.key) + ": latency percentiles", "ms"},
      scale_for(values.medians, values.extents), concurrency_labels(group), entries.size());
  if (several_stores(report)) {
    draw_latency_per_store(svg, report, group, f, overlay);
  } else {
    draw_latency_one_store(svg, report, group, f, overlay);
  }
  legend(svg, entries);
  svg << "</svg>\n";
  return svg.str();
}

/// The charts, in the order of the cells (as the tables list them); in each, every store's
/// cells by concurrency.
std::vector<chart_group> cells_by_chart(const bench_report& report) {
  std::vector<chart_group> charts;
  const std::size_t stores = std::max<std::size_t>(1, report.stores.size());
  for (const auto& summary : report.summaries) {
    const auto& c = summary.measured;
    auto same_chart = [&](const chart_group& g) {
      return g.key.op == c.op && g.key.size == c.size && g.key.stored == c.stored;
    };
    auto found = std::find_if(charts.begin(), charts.end(), same_chart);
    if (found == charts.end()) {
      charts.push_back({{c.op, c.size, 0, c.stored}, {}, {}});
      found = std::prev(charts.end());
    }
    if (std::find(found->concurrencies.begin(), found->concurrencies.end(), c.concurrency) ==
        found->concurrencies.end()) {
      found->concurrencies.push_back(c.concurrency);
    }
  }
  for (auto& chart : charts) {
    std::sort(chart.concurrencies.begin(), chart.concurrencies.end());
    chart.by_store.assign(stores, std::vector<const cell_summary*>(chart.concurrencies.size()));
  }
  for (const auto& summary : report.summaries) {
    const auto& c = summary.measured;
    for (auto& chart : charts) {
      if (chart.key.op == c.op && chart.key.size == c.size && chart.key.stored == c.stored &&
          summary.store < stores) {
        const auto at =
            std::find(chart.concurrencies.begin(), chart.concurrencies.end(), c.concurrency);
        chart.by_store[summary.store][static_cast<std::size_t>(at - chart.concurrencies.begin())] =
            &summary;
      }
    }
  }
  return charts;
}

} // namespace

std::string charts_section(const bench_report& report) {
  std::ostringstream html;
  std::optional<operation> heading;
  for (const auto& chart : cells_by_chart(report)) {
    if (heading != chart.key.op) {
      html << "<h2>" << to_string(chart.key.op) << "</h2>\n" << ratio_chart(report, chart.key.op);
      heading = chart.key.op;
    }
    html << "<div class=\"charts\">\n"
         << throughput_chart(report, chart) << latency_chart(report, chart) << "</div>\n";
  }
  return html.str();
}

} // namespace s3fault::bench::html_page
