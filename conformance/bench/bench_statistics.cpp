#include "conformance/bench/bench_statistics.hpp"

#include <algorithm>
#include <cmath>

namespace s3fault::bench {

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

comparison compare_with_baseline(double baseline, double current, better direction,
                                 std::optional<double> noise_percent, double floor_percent) {
  comparison result;
  result.baseline = baseline;
  result.current = current;
  result.threshold_percent = std::max(noise_percent.value_or(0.0), floor_percent);
  if (baseline == 0) {
    // No level to compare against: a change from nothing is flagged when something appeared.
    result.delta_percent = current == 0 ? 0.0 : 100.0;
    result.flagged = current != 0;
  } else {
    result.delta_percent = (current - baseline) / baseline * 100.0;
    result.flagged = std::abs(result.delta_percent) > result.threshold_percent;
  }
  const bool worse = direction == better::higher ? current < baseline : current > baseline;
  result.regression = result.flagged && worse;
  return result;
}

} // namespace s3fault::bench
