#pragma once
// The arithmetic of `s3fault bench` results, apart from any I/O: the median of a cell's rounds
// with its range, the noise band from control pairs (the same cell run twice in alternation),
// and the comparison with a baseline that flags a change only when it is larger than the noise.
#include <optional>
#include <string>
#include <vector>

namespace s3fault::bench {

/// Median (the mean of the middle two for an even count), min and max of one figure over rounds.
struct spread {
  double median = 0;
  double min = 0;
  double max = 0;
  std::size_t samples = 0;
};
spread summarize(std::vector<double> values);

/// The noise band of a figure, in percent of its level: the largest relative difference between
/// the two runs of each control pair (|a - b| / mean(a, b)). Pairs with both values 0 are skipped.
/// nullopt when there is no usable pair.
std::optional<double> noise_band_percent(const std::vector<double>& first,
                                         const std::vector<double>& second);

enum class better { higher, lower }; // throughput: higher; latency: lower

struct comparison {
  double baseline = 0;
  double current = 0;
  double delta_percent = 0;     // (current - baseline) / baseline * 100
  double threshold_percent = 0; // what a change had to exceed to be flagged
  bool flagged = false;         // beyond the threshold
  bool regression = false;      // flagged and in the worse direction
};

/// Compares one figure with its baseline. The threshold is the noise band when one is known,
/// never below `floor_percent` (a change smaller than that is not reported as a result).
comparison compare_with_baseline(double baseline, double current, better direction,
                                 std::optional<double> noise_percent, double floor_percent = 5.0);

} // namespace s3fault::bench
