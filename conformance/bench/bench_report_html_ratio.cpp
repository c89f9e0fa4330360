// The ratio chart of the --html page, one per operation with comparisons: a forest plot of its
// throughput figure, each compared cell (and store) against its reference (the reference store,
// or the baseline), so that which is faster, by how much and how sure the bench is read at once.
//
//   label          |   ratio axis (log), 1x line, ±--min-change band   | text
//   delayed 1MiB c=4   ·····[====●====]·····|·······                    0.21x slower [0.19x, 0.23x]
//
// The dot is the ratio of the medians (what ratio_text prints), the bar its (1 - alpha)
// interval (of the geometric means), the dot's colour what the comparison said. Dots have the
// class "ratio-mark" and data-cell, data-store, data-ratio and data-change.
#include "conformance/bench/bench_report_html.hpp"

#include "conformance/bench/bench_verdict.hpp"
#include "conformance/bench/comparison_text.hpp"
#include "conformance/bench/workload.hpp"
#include "text/markup.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace s3fault::bench::html_page {
namespace {

constexpr int ratio_width = 1000;
constexpr int label_width = 200;      // left of the plot: the rows' names
constexpr int words_width = 290;      // right of it: the ratio, the change and the interval
constexpr int ratio_top = 50;         // the title and the axis' side labels
constexpr int ratio_row = 24;         // one comparison
constexpr int ratio_bottom = 62;      // tick labels, the axis' name and the key
constexpr double least_tick_gap = 42; // pixels between two tick labels
constexpr const char* band_fill = "#888";

/// One row: a comparison of the throughput figure of a cell on a store.
struct ratio_row_of {
  const cell_summary* summary;
  const comparison* judged;
};

/// Where a comparison's dot and bar lie; the dot of a comparison not judged lies at the ratio
/// of its medians when both have one, else at 1x.
struct ratio_position {
  double ratio = 1;
  std::optional<double> low;  // the interval, when judged; at most 0 where the interval
  std::optional<double> high; // reaches a total loss
};

ratio_position position_of(const comparison& c) {
  if (c.judged) {
    return {1 + c.delta_percent / 100, 1 + c.interval_low_percent / 100,
            1 + c.interval_high_percent / 100};
  }
  if (c.baseline_rounds > 0 && c.current_rounds > 0 && c.baseline > 0 && c.current > 0) {
    return {c.current / c.baseline, std::nullopt, std::nullopt};
  }
  return {};
}

/// The log x axis of the chart, from `low` to `high` (ratios), over the plot's pixels.
struct ratio_axis {
  double low = 0.5;
  double high = 2;
  double left = label_width;
  double right = ratio_width - words_width;

  double x_at(double ratio) const {
    const double share = ratio <= 0 ? 0 : std::log(ratio / low) / std::log(high / low);
    return left + std::clamp(share, 0.0, 1.0) * (right - left);
  }
};

/// Wide enough for 1x, the --min-change band and every dot, with a margin; intervals widen it
/// by at most interval_reach either way, so that one comparison whose rounds say little (an
/// interval of [0.00x, 3.37x]) does not squeeze every dot into the middle: beyond, its bar is
/// cut at the edge with an arrowhead.
ratio_axis axis_for(const std::vector<ratio_row_of>& rows, double min_change_percent) {
  constexpr double interval_reach = 8;
  double least = std::min(1.0, 1 - std::min(min_change_percent, 90.0) / 100);
  double most = 1 + min_change_percent / 100;
  for (const auto& row : rows) {
    const double ratio = position_of(*row.judged).ratio;
    if (ratio > 0) {
      least = std::min(least, ratio);
      most = std::max(most, ratio);
    }
  }
  double low = least;
  double high = most;
  for (const auto& row : rows) {
    const auto at = position_of(*row.judged);
    if (at.low && *at.low > 0) {
      low = std::min(low, std::max(*at.low, least / interval_reach));
    } else if (at.low) {
      low = std::min(low, least / interval_reach); // a total loss is within the interval
    }
    if (at.high) {
      high = std::max(high, std::min(*at.high, most * interval_reach));
    }
  }
  ratio_axis axis;
  axis.low = low / 1.15;
  axis.high = high * 1.15;
  return axis;
}

/// Ticks at round ratios, the roundest first (1x always), none closer than least_tick_gap.
std::vector<double> ratio_ticks(const ratio_axis& axis) {
  const std::vector<std::vector<double>> tiers = {{1}, {2, 5}, {1.5, 3}, {1.2, 4, 8}, {1.1, 9}};
  std::vector<double> kept;
  const int first = static_cast<int>(std::floor(std::log10(axis.low)));
  const int last = static_cast<int>(std::ceil(std::log10(axis.high)));
  for (const auto& tier : tiers) {
    for (int decade = first; decade <= last; ++decade) {
      for (const double factor : tier) {
        const double tick = factor * std::pow(10.0, decade);
        if (tick < axis.low || tick > axis.high) {
          continue;
        }
        const bool crowded = std::any_of(kept.begin(), kept.end(), [&](double other) {
          return std::abs(axis.x_at(other) - axis.x_at(tick)) < least_tick_gap;
        });
        if (!crowded) {
          kept.push_back(tick);
        }
      }
    }
  }
  std::sort(kept.begin(), kept.end());
  return kept;
}

/// "direct" (the reference store) or "the baseline".
std::string reference_name(const bench_report& report) {
  return report.reference == reference_kind::store ? report.stores.front().name : "the baseline";
}

std::string chart_title(const bench_report& report, operation op, figure shown,
                        const std::vector<ratio_row_of>& rows) {
  std::string whose = "this run";
  if (report.reference == reference_kind::store) {
    const bool one = std::all_of(rows.begin(), rows.end(), [&](const ratio_row_of& row) {
      return row.summary->store == rows.front().summary->store;
    });
    whose = one ? report.stores[rows.front().summary->store].name : "each store";
  }
  return std::string(to_string(op)) + " " + column_title(shown) + ", " + whose + " over " +
         reference_name(report) +
         (report.reference == reference_kind::store ? " (the reference)" : "") +
         ": ratio of the medians with its " +
         format_percent(100 * (1 - report.settings->judging.alpha), false) +
         " % interval, log scale";
}

/// The row's name: size and concurrency, after the store's name (in its colour) when there
/// are several.
void draw_row_label(std::ostringstream& svg, const bench_report& report,
                    const cell_summary& summary, double y) {
  const auto& c = summary.measured;
  svg << "<text x=\"" << label_width - 12 << "\" y=\"" << num(y + 4) << "\" text-anchor=\"end\">";
  if (several_stores(report)) {
    svg << "<tspan font-weight=\"bold\" fill=\"" << store_colour(summary.store) << "\">"
        << text::escape_html(report.stores[summary.store].name) << "</tspan> ";
  }
  svg << format_size(c.size) << (c.stored > 0 ? " stored=" + format_size(c.stored) : "")
      << " c=" << c.concurrency << "</text>\n";
}

/// The row's words: "0.21x slower (4.8x)", "2.10x faster", "1.02x no difference". A slowdown
/// also as the verdict says it (bench_verdict: "4.8x slower"), which reads easier than 0.21x.
std::string change_in_words(const comparison& c, const std::string& word) {
  const double ratio = 1 + c.delta_percent / 100;
  std::string text = ratio_text(c) + " " + word;
  if (word == "slower" && ratio > 0) {
    text += " (" + format_factor(1 / ratio) + ")";
  }
  return text;
}

/// What the dot's tooltip says: the figure, both medians, the interval, p, what these rounds
/// could detect and the change; or why it was not judged.
std::string row_tooltip(const bench_report& report, const cell_summary& summary, figure shown,
                        const comparison& c) {
  const std::string what = compared_figure_text(report, summary, shown);
  if (!c.judged) {
    return what + ": not judged: " + c.not_judged;
  }
  const std::string unit(info(shown).label);
  const auto columns = comparison_columns(shown, c, reference_kind::store);
  return what + ": " + ratio_text(c) + " (medians " + format_figure(shown, c.baseline) + " → " +
         format_figure(shown, c.current) + " " + unit + "); " +
         format_percent(100 * (1 - report.settings->judging.alpha), false) +
         " % interval of the geometric means' ratio " + columns[4] + "; p " +
         p_value_text(c.p_value) + "; detectable " + columns[6] + " %; " +
         std::string(change_word(shown, c));
}

/// The interval's bar, from `low` to `high`; an end beyond the axis is cut at its edge with an
/// arrowhead pointing on.
void draw_interval(std::ostringstream& svg, const ratio_axis& axis, double low, double high,
                   double y, const char* colour, const std::string& tooltip) {
  const double left = axis.x_at(low);
  const double right = axis.x_at(high);
  svg << "<line class=\"ratio-interval\" x1=\"" << num(left) << "\" x2=\"" << num(right)
      << "\" y1=\"" << num(y) << "\" y2=\"" << num(y) << "\" stroke=\"" << colour
      << "\" stroke-opacity=\"0.45\" stroke-width=\"6\"><title>" << tooltip << "</title></line>\n";
  auto arrowhead = [&](double tip, double direction) {
    svg << "<path d=\"M" << num(tip) << " " << num(y) << "L" << num(tip - 8 * direction) << " "
        << num(y - 6) << "L" << num(tip - 8 * direction) << " " << num(y + 6) << "Z\" fill=\""
        << colour << "\" fill-opacity=\"0.6\"/>\n";
  };
  if (low < axis.low) {
    arrowhead(left, -1);
  }
  if (high > axis.high) {
    arrowhead(right, 1);
  }
}

/// One row: its name, the interval's bar, the dot with its hooks, and in words the ratio, the
/// change and the interval.
void draw_row(std::ostringstream& svg, const bench_report& report, const ratio_axis& axis,
              const ratio_row_of& row, figure shown, double y) {
  const auto& summary = *row.summary;
  const auto& c = *row.judged;
  const std::string word(change_word(shown, c));
  const auto look = look_of_change(word);
  const auto at = position_of(c);
  const std::string tooltip = text::escape_html(row_tooltip(report, summary, shown, c));
  draw_row_label(svg, report, summary, y);
  if (at.low && at.high) {
    draw_interval(svg, axis, *at.low, *at.high, y, look.colour, tooltip);
  }
  const std::string ratio = c.judged ? ratio_text(c) : "-";
  svg << "<circle class=\"ratio-mark\" data-cell=\""
      << text::escape_html(describe(summary.measured)) << "\" data-store=\""
      << text::escape_html(report.stores[summary.store].name) << "\" data-ratio=\"" << ratio
      << "\" data-change=\"" << word << "\" cx=\"" << num(axis.x_at(at.ratio)) << "\" cy=\""
      << num(y) << "\" r=\"5.5\" fill=\"" << (look.hollow ? "#fff" : look.colour) << "\" stroke=\""
      << (look.hollow ? look.colour : "#fff") << "\" stroke-width=\"" << (look.hollow ? 2 : 1)
      << "\"><title>" << tooltip << "</title></circle>\n";
  svg << "<text x=\"" << axis.right + 14 << "\" y=\"" << num(y + 4) << "\">";
  if (c.judged) {
    svg << "<tspan font-weight=\"bold\" fill=\"" << look.colour << "\">" << change_in_words(c, word)
        << "</tspan> <tspan fill=\"#666\">"
        << comparison_columns(shown, c, reference_kind::store)[4] << "</tspan>";
  } else {
    svg << "<tspan fill=\"" << look.colour << "\">not judged (see its tooltip)</tspan>";
  }
  svg << "<title>" << tooltip << "</title></text>\n";
}

/// The x axis under the rows: a grid line and a label per tick, the 1x line, the band of
/// --min-change, and which side is slower.
void draw_axis(std::ostringstream& svg, const bench_report& report, const ratio_axis& axis,
               double top, double bottom) {
  const double min_change = report.settings->judging.min_change_percent;
  const double band_left = axis.x_at(1 - min_change / 100);
  svg << "<rect class=\"min-change-band\" x=\"" << num(band_left) << "\" y=\"" << num(top)
      << "\" width=\"" << num(axis.x_at(1 + min_change / 100) - band_left) << "\" height=\""
      << num(bottom - top) << "\" fill=\"" << band_fill << "\" fill-opacity=\"0.18\"><title>±"
      << format_percent(min_change, false)
      << " % (--min-change): a smaller change of the medians is never flagged</title></rect>\n";
  for (const double tick : ratio_ticks(axis)) {
    const double x = axis.x_at(tick);
    svg << "<line x1=\"" << num(x) << "\" x2=\"" << num(x) << "\" y1=\"" << num(top) << "\" y2=\""
        << num(bottom) << "\" class=\"grid\"/><text x=\"" << num(x) << "\" y=\"" << num(bottom + 14)
        << "\" text-anchor=\"middle\">" << tick_label(tick) << "x</text>\n";
  }
  const double one = axis.x_at(1);
  svg << "<line class=\"one\" x1=\"" << num(one) << "\" x2=\"" << num(one) << "\" y1=\""
      << num(top - 6) << "\" y2=\"" << num(bottom) << "\" stroke=\"#333\" stroke-width=\"1.5\"/>\n"
      << "<text x=\"" << num(one - 8) << "\" y=\"" << num(top - 10)
      << "\" text-anchor=\"end\" class=\"axis\">◀ slower than "
      << text::escape_html(reference_name(report)) << "</text><text x=\"" << num(one + 8)
      << "\" y=\"" << num(top - 10) << "\" class=\"axis\">faster ▶</text>\n";
}

/// Under the axis, what the marks mean.
void draw_key(std::ostringstream& svg, const bench_report& report, double y) {
  const auto& rules = report.settings->judging;
  double x = 10;
  for (const char* word : {"slower", "faster", "no difference", "cannot tell", "not judged"}) {
    const auto look = look_of_change(word);
    svg << "<circle cx=\"" << num(x + 5) << "\" cy=\"" << num(y - 4) << "\" r=\"5\" fill=\""
        << (look.hollow ? "#fff" : look.colour) << "\" stroke=\"" << look.colour
        << "\" stroke-width=\"" << (look.hollow ? 2 : 1) << "\"/><text x=\"" << num(x + 14)
        << "\" y=\"" << num(y) << "\">" << word << "</text>\n";
    x += 26 + 6.2 * static_cast<double>(std::string_view(word).size());
  }
  const std::string interval =
      format_percent(100 * (1 - rules.alpha), false) + " % interval of the ratio";
  svg << "<line x1=\"" << num(x) << "\" x2=\"" << num(x + 22) << "\" y1=\"" << num(y - 4)
      << "\" y2=\"" << num(y - 4) << "\" stroke=\"#757575\" stroke-opacity=\"0.45\" "
      << "stroke-width=\"6\"/><text x=\"" << num(x + 28) << "\" y=\"" << num(y) << "\">" << interval
      << "</text>\n";
  x += 40 + 6.2 * static_cast<double>(interval.size());
  svg << "<rect x=\"" << num(x) << "\" y=\"" << num(y - 10) << "\" width=\"22\" height=\"12\" "
      << "fill=\"" << band_fill << "\" fill-opacity=\"0.18\"/><text x=\"" << num(x + 28)
      << "\" y=\"" << num(y) << "\">±" << format_percent(rules.min_change_percent, false)
      << " % (--min-change): never flagged</text>\n";
}

} // namespace

std::string ratio_chart(const bench_report& report, operation op) {
  const figure shown = op.workload().throughput_figure();
  std::vector<ratio_row_of> rows;
  for (const auto& summary : report.summaries) {
    const auto& c = summary.versus[static_cast<std::size_t>(shown)];
    if (summary.measured.op == op && c) {
      rows.push_back({&summary, &*c});
    }
  }
  if (rows.empty()) {
    return "";
  }
  const auto axis = axis_for(rows, report.settings->judging.min_change_percent);
  const double top = ratio_top;
  const double bottom = top + static_cast<double>(rows.size() * ratio_row);
  const int height = static_cast<int>(bottom) + ratio_bottom;
  const std::string title = chart_title(report, op, shown, rows);
  std::ostringstream svg;
  svg << "<div class=\"ratio\">\n<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart ratio\" "
      << "data-operation=\"" << to_string(op) << "\" data-figure=\"" << info(shown).key
      << "\" width=\"" << ratio_width << "\" height=\"" << height << "\" viewBox=\"0 0 "
      << ratio_width << " " << height << "\" role=\"img\" aria-label=\"" << text::escape_html(title)
      << "\">\n<text x=\"10\" y=\"18\" class=\"title\">" << text::escape_html(title) << "</text>\n";
  // Every other row shaded, so that a row's name, dot and words read as one line.
  for (std::size_t i = 1; i < rows.size(); i += 2) {
    svg << "<rect x=\"0\" y=\"" << num(top + static_cast<double>(i * ratio_row)) << "\" width=\""
        << ratio_width << "\" height=\"" << ratio_row << "\" fill=\"#f4f4f4\"/>\n";
  }
  draw_axis(svg, report, axis, top, bottom);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    draw_row(svg, report, axis, rows[i], shown,
             top + static_cast<double>(i * ratio_row) + ratio_row / 2.0);
  }
  svg << "<text x=\"" << num((axis.left + axis.right) / 2) << "\" y=\"" << num(bottom + 32)
      << "\" text-anchor=\"middle\" class=\"axis\">" << text::escape_html(column_title(shown))
      << " over " << text::escape_html(reference_name(report)) << "'s (log scale)</text>\n";
  draw_key(svg, report, bottom + 54);
  svg << "</svg>\n</div>\n";
  return svg.str();
}

} // namespace s3fault::bench::html_page
