#include "conformance/bench/comparison_text.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace s3fault::bench {

std::string format_factor(double factor) {
  char text[32];
  std::snprintf(text, sizeof text, factor < 10 ? "%.1fx" : "%.0fx", factor);
  return text;
}

std::string format_ratio(double ratio) {
  int decimals = 2;
  if (ratio >= 100) {
    decimals = 0;
  } else if (ratio >= 10) {
    decimals = 1;
  } else if (ratio > 0 && ratio < 0.1) {
    decimals = std::min(6, 1 + static_cast<int>(std::ceil(-std::log10(ratio))));
  }
  char text[48];
  std::snprintf(text, sizeof text, "%.*fx", decimals, ratio);
  return text;
}

namespace {

/// The ratio's interval: in percent against a baseline, as ratios against a store.
std::string interval_text(const comparison& c, reference_kind kind) {
  if (kind == reference_kind::store) {
    return "[" + format_ratio(1 + c.interval_low_percent / 100) + ", " +
           format_ratio(1 + c.interval_high_percent / 100) + "]";
  }
  return "[" + format_percent(c.interval_low_percent, true) + ", " +
         format_percent(c.interval_high_percent, true) + "]";
}

} // namespace

std::string ratio_text(const comparison& c) {
  return format_ratio(1 + c.delta_percent / 100);
}

std::vector<std::string> comparison_columns(figure f, const comparison& c, reference_kind kind) {
  if (!c.judged) {
    return {c.baseline_rounds > 0 ? format_figure(f, c.baseline) : "-",
            c.current_rounds > 0 ? format_figure(f, c.current) : "-",
            "-",
            std::to_string(c.baseline_rounds) + "/" + std::to_string(c.current_rounds),
            "-",
            "-",
            "-",
            "not judged: " + c.not_judged};
  }
  return {format_figure(f, c.baseline),
          format_figure(f, c.current),
          kind == reference_kind::store ? ratio_text(c) : format_percent(c.delta_percent, true),
          std::to_string(c.baseline_rounds) + "/" + std::to_string(c.current_rounds),
          interval_text(c, kind),
          p_value_text(c.p_value),
          "-" + format_percent(c.detectable_drop_percent, false) + "/+" +
              format_percent(c.detectable_rise_percent, false),
          std::string(change_word(f, c))};
}

std::vector<side_by_side_row> side_by_side(const std::vector<cell_summary>& summaries) {
  std::vector<side_by_side_row> rows;
  // The summaries of one cell are consecutive, store 0 first (summarize_cells).
  for (std::size_t begin = 0; begin < summaries.size();) {
    std::size_t end = begin + 1;
    while (end < summaries.size() && summaries[end].store != 0) {
      ++end;
    }
    for (const auto f : compared_figures()) {
      side_by_side_row row{f, {}};
      bool any = false;
      for (std::size_t i = begin; i < end; ++i) {
        row.stores.push_back(&summaries[i]);
        any = any || summaries[i].figures[static_cast<std::size_t>(f)].has_value();
      }
      if (any) {
        rows.push_back(std::move(row));
      }
    }
    begin = end;
  }
  return rows;
}

std::vector<std::string> comparison_titles(const judging_rules& rules, reference_kind kind,
                                           const std::string& reference_store) {
  const bool stores = kind == reference_kind::store;
  return {stores ? reference_store : "baseline",
          stores ? "median" : "now",
          stores ? "ratio" : "delta %",
          "rounds",
          (stores ? "" : "ratio ") + format_percent(100 * (1 - rules.alpha), false) + " % interval",
          "p",
          "detectable %",
          "change"};
}

} // namespace s3fault::bench
