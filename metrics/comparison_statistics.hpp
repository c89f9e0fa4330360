#pragma once
// The arithmetic of comparing two sets of measurements, apart from any I/O: the median of a
// figure's values with its range, the noise band from control pairs (the same cell run twice
// in alternation), and the comparison of one figure's values with a reference's. The bench
// compares rounds (with a baseline, or one store with another); a timeline compares blocks of
// its first sixth with blocks of its last (drift.hpp). One judge, so both say "cannot tell" alike.
//
// The comparison is a two-sample Student's t-test on the logarithms of the per-round values
// (pooled variance, two-sided): the ratio of the geometric means of the rounds, with a
// confidence interval. With nothing changed, a figure is flagged with probability at most
// `alpha` (the false-alarm rate, per figure). Working on logarithms makes a halving and a
// doubling equally far from "no change", so a 98 % drop is never hidden by a wide spread on a
// linear scale.
#include <optional>
#include <string>
#include <vector>

namespace s3fault::metrics {

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

/// How a change must show to be flagged.
struct judging_rules {
  double alpha = 0.01;              // false-alarm rate per figure
  double power = 0.8;               // for the smallest change the rounds can detect
  double min_change_percent = 10;   // smaller changes of the medians are never flagged
  std::optional<double> noise_band; // --control's band (percent): a change within it is noise
};

struct comparison {
  double baseline = 0;      // median of the baseline's rounds
  double current = 0;       // median of this run's rounds
  double delta_percent = 0; // of the medians: (current - baseline) / baseline * 100
  std::size_t baseline_rounds = 0;
  std::size_t current_rounds = 0;
  /// Whether the rounds allowed a judgement; when not, `not_judged` says why and nothing is
  /// flagged, and the bench does not pass.
  bool judged = false;
  std::string not_judged;
  /// The ratio of the geometric means as a change in percent, with its (1 - alpha) interval.
  double ratio_percent = 0;
  double interval_low_percent = 0;
  double interval_high_percent = 0;
  double p_value = 1;
  /// The smallest drop and rise these rounds would find with `power`, from the statistics and
  /// the control band alone (not floored at --min-change, so that a comparison too weak to see
  /// a change of --min-change says so): changes under them cannot be told from none.
  double detectable_drop_percent = 0;
  double detectable_rise_percent = 0;
  /// The control band it was judged with (judging_rules::noise_band): a change within it is
  /// noise. The HTML page draws it around the baseline.
  std::optional<double> noise_band_percent;
  bool flagged = false;    // significant, beyond the control band and --min-change
  bool regression = false; // flagged and in the worse direction
  /// Whether the rounds told: the change was flagged, or they could have found a change of
  /// --min-change either way (both detectable changes at most --min-change). A judged
  /// comparison that is not conclusive is "cannot tell", and no pass (the inconclusive rule).
  bool conclusive = false;
  /// When judged but not conclusive: the rounds on each side (this run and a reference
  /// measured the same way) that would bring the detectable change under --min-change at this
  /// noise; nullopt when no number would (the control band alone is wider than --min-change,
  /// or more than max_advised_rounds would be needed).
  std::optional<unsigned> rounds_needed;
};

/// The most rounds a comparison advises; beyond it the answer is "more than this".
inline constexpr unsigned max_advised_rounds = 1000;

/// How the two sides of a comparison are named where it says why it could not judge.
struct comparison_sides {
  std::string reference = "the baseline";
  std::string current = "this run";
  std::string sample = "round";                                 // what one value is
  std::string why_empty = "every operation of the cell failed"; // why a side may have none
  std::string more = "use --rounds 3 or more";                  // how to get a spread
};

/// Compares one figure's per-round values with the baseline's (or another reference's). Rounds
/// must be above zero to be compared on a ratio scale; a figure with a round at 0 is not judged.
comparison compare_rounds(const std::vector<double>& baseline_rounds,
                          const std::vector<double>& current_rounds, better direction,
                          const judging_rules& rules, const comparison_sides& sides = {});

/// `value` rounded half away from zero to `decimals`.
double round_to(double value, int decimals);
/// A percentage with one decimal: "+12.3", "-4.0", "0.0".
std::string format_percent(double value, bool with_sign);
/// A p value as reports show it: "0.034", "<0.001".
std::string p_value_text(double p);

/// A control band (percent of the mean, |a - b| / mean) as the ratio a/b it allows, as a log.
double band_as_log_ratio(double band_percent);

/// Whether a control band of `band_percent` alone hides a change of `min_change_percent`, so
/// that no number of rounds can tell one.
bool band_hides_min_change(std::optional<double> band_percent, double min_change_percent);

} // namespace s3fault::metrics
