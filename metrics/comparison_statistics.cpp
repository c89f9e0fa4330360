#include "metrics/comparison_statistics.hpp"

#include <boost/math/distributions/students_t.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>
#include <tuple>

namespace s3fault::metrics {

spread summarize(std::vector<double> values) {
  spread result;
  result.samples = values.size();
  if (values.empty()) {
    return result;
  }
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  result.median =
      values.size() % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2.0;
  result.min = values.front();
  result.max = values.back();
  return result;
}

std::optional<double> noise_band_percent(const std::vector<double>& first,
                                         const std::vector<double>& second) {
  std::optional<double> widest;
  for (std::size_t i = 0; i < std::min(first.size(), second.size()); ++i) {
    const double level = (first[i] + second[i]) / 2.0;
    if (level <= 0) {
      continue;
    }
    const double relative = std::abs(first[i] - second[i]) / level * 100.0;
    widest = std::max(widest.value_or(0.0), relative);
  }
  return widest;
}

double band_as_log_ratio(double band_percent) {
  // |a - b| / ((a + b) / 2) = band  <=>  a / b = (2 + band) / (2 - band)
  const double band = std::clamp(band_percent / 100.0, 0.0, 1.999);
  return std::log((2 + band) / (2 - band));
}

namespace {

/// A hair of tolerance where a detectable change is compared with --min-change, so that one
/// computed from the same numbers counts as equal.
constexpr double same_percent = 1e-9;

double percent_of_log(double log_ratio) {
  return std::expm1(log_ratio) * 100.0;
}

double log_of_percent(double percent) {
  return std::log1p(percent / 100.0);
}

struct log_sample {
  double mean = 0;
  double squares = 0; // sum of squared deviations from the mean
  std::size_t count = 0;
};

log_sample logs_of(const std::vector<double>& values) {
  log_sample sample;
  sample.count = values.size();
  for (const double v : values) {
    sample.mean += std::log(v);
  }
  sample.mean /= static_cast<double>(values.size());
  for (const double v : values) {
    sample.squares += (std::log(v) - sample.mean) * (std::log(v) - sample.mean);
  }
  return sample;
}

std::string why_not_judged(const std::vector<double>& before, const std::vector<double>& now,
                           const comparison_sides& sides) {
  if (before.empty()) {
    return sides.reference + " has no value (" + sides.why_empty + ")";
  }
  if (now.empty()) {
    return sides.current + " has no value (" + sides.why_empty + ")";
  }
  const auto zero = [](const std::vector<double>& v) {
    return std::any_of(v.begin(), v.end(), [](double x) { return !(x > 0); });
  };
  if (zero(before) || zero(now)) {
    return "a " + sides.sample + " at 0 cannot be compared as a ratio";
  }
  if (before.size() + now.size() < 3) {
    return "one " + sides.sample + " on each side: no spread to judge by (" + sides.more + ")";
  }
  return "";
}

/// The sum of the t quantiles that turn a standard error into a detectable change. Kept per
/// thread by (alpha, power, df): each is an iterative root-finding, and rounds_to_detect asks
/// for several, for every comparison that could not tell.
double detection_quantiles(double df, const judging_rules& rules) {
  thread_local std::map<std::tuple<double, double, double>, double> known;
  const auto key = std::make_tuple(rules.alpha, rules.power, df);
  if (const auto found = known.find(key); found != known.end()) {
    return found->second;
  }
  const boost::math::students_t t(df);
  const double sum =
      boost::math::quantile(t, 1 - rules.alpha / 2) + boost::math::quantile(t, rules.power);
  return known.emplace(key, sum).first->second;
}

/// The least rounds per side that detect a rise of --min-change with `variance` (of the
/// logarithms, pooled) and the control band `band` (a log ratio); what n rounds detect only
/// shrinks as n grows, so the answer is found by bisection.
std::optional<unsigned> rounds_to_detect(double variance, double band, const judging_rules& rules) {
  const double target = log_of_percent(rules.min_change_percent);
  const auto detects = [&](unsigned n) {
    const double se = std::sqrt(variance * 2.0 / n);
    return detection_quantiles(2.0 * n - 2, rules) * se <= target + same_percent;
  };
  if (band > target + same_percent || !detects(max_advised_rounds)) {
    return std::nullopt;
  }
  unsigned low = 1; // detects nothing: one round a side has no spread
  unsigned high = max_advised_rounds;
  while (high - low > 1) {
    const unsigned middle = low + (high - low) / 2;
    (detects(middle) ? high : low) = middle;
  }
  return high;
}

} // namespace

bool band_hides_min_change(std::optional<double> band_percent, double min_change_percent) {
  return band_percent &&
         band_as_log_ratio(*band_percent) > log_of_percent(min_change_percent) + same_percent;
}

comparison compare_rounds(const std::vector<double>& baseline_rounds,
                          const std::vector<double>& current_rounds, better direction,
                          const judging_rules& rules, const comparison_sides& sides) {
  comparison result;
  result.baseline_rounds = baseline_rounds.size();
  result.current_rounds = current_rounds.size();
  result.noise_band_percent = rules.noise_band;
  if (!baseline_rounds.empty()) {
    result.baseline = summarize(baseline_rounds).median;
  }
  if (!current_rounds.empty()) {
    result.current = summarize(current_rounds).median;
  }
  if (result.baseline > 0) {
    result.delta_percent = (result.current - result.baseline) / result.baseline * 100.0;
  }
  result.not_judged = why_not_judged(baseline_rounds, current_rounds, sides);
  if (!result.not_judged.empty()) {
    return result;
  }
  result.judged = true;

  const auto before = logs_of(baseline_rounds);
  const auto now = logs_of(current_rounds);
  const double df = static_cast<double>(before.count + now.count - 2);
  const double variance = (before.squares + now.squares) / df;
  const double standard_error = std::sqrt(
      variance * (1.0 / static_cast<double>(before.count) + 1.0 / static_cast<double>(now.count)));
  const double difference = now.mean - before.mean;
  const boost::math::students_t t(df);
  const double critical = boost::math::quantile(t, 1 - rules.alpha / 2);

  result.ratio_percent = percent_of_log(difference);
  result.interval_low_percent = percent_of_log(difference - critical * standard_error);
  result.interval_high_percent = percent_of_log(difference + critical * standard_error);
  if (standard_error > 0) {
    result.p_value =
        2 * boost::math::cdf(boost::math::complement(t, std::abs(difference) / standard_error));
  } else {
    result.p_value = difference == 0 ? 1.0 : 0.0;
  }

  // Power is judged before any floor: --min-change only decides what is flagged.
  const double statistical = detection_quantiles(df, rules) * standard_error;
  const double band = rules.noise_band ? band_as_log_ratio(*rules.noise_band) : 0.0;
  const double detectable = std::max(statistical, band);
  result.detectable_rise_percent = percent_of_log(detectable);
  result.detectable_drop_percent = -percent_of_log(-detectable);

  const bool significant = result.p_value < rules.alpha;
  const bool beyond_band = std::abs(difference) > band;
  const bool beyond_minimum = std::abs(result.delta_percent) >= rules.min_change_percent;
  result.flagged = significant && beyond_band && beyond_minimum;
  const bool worse = direction == better::higher ? difference < 0 : difference > 0;
  result.regression = result.flagged && worse;
  const bool powerful = result.detectable_rise_percent <= rules.min_change_percent + same_percent &&
                        result.detectable_drop_percent <= rules.min_change_percent + same_percent;
  result.conclusive = result.flagged || powerful;
  if (!result.conclusive) {
    result.rounds_needed = rounds_to_detect(variance, band, rules);
  }
  return result;
}

double round_to(double value, int decimals) {
  const double scale = std::pow(10.0, decimals);
  return std::round(value * scale) / scale;
}

std::string format_percent(double value, bool with_sign) {
  char text[64];
  const double rounded = round_to(value, 1);
  std::snprintf(text, sizeof text, with_sign ? "%+.1f" : "%.1f", rounded == 0 ? 0.0 : rounded);
  return text;
}

std::string p_value_text(double p) {
  if (p < 0.001) {
    return "<0.001";
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.3f", p);
  return text;
}

} // namespace s3fault::metrics
