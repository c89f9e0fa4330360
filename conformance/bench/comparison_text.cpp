#include "conformance/bench/comparison_text.hpp"

#include <cstdio>

namespace s3fault::bench {

std::string p_value_text(double p) {
  if (p < 0.001) {
    return "<0.001";
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", p);
  return text;
}

std::vector<std::string> comparison_columns(figure f, const comparison& c) {
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
  const auto word = change_word(f, c);
  return {format_figure(f, c.baseline),
          format_figure(f, c.current),
          format_percent(c.delta_percent, true),
          std::to_string(c.baseline_rounds) + "/" + std::to_string(c.current_rounds),
          "[" + format_percent(c.interval_low_percent, true) + ", " +
              format_percent(c.interval_high_percent, true) + "]",
          p_value_text(c.p_value),
          "-" + format_percent(c.detectable_drop_percent, false) + "/+" +
              format_percent(c.detectable_rise_percent, false),
          word.empty() ? "cannot tell" : std::string(word)};
}

std::vector<std::string> comparison_titles(const judging_rules& rules) {
  return {"baseline",
          "now",
          "delta %",
          "rounds",
          "ratio " + format_percent(100 * (1 - rules.alpha), false) + " % interval",
          "p",
          "detectable %",
          "change"};
}

} // namespace s3fault::bench
