// Bench statistics on per-round numbers whose answers are known: medians, the noise band of
// control pairs, and the round-by-round comparison (Student's t on the logarithms). The
// comparison must flag what changed, stay quiet on what did not at the stated false-alarm rate,
// detect the change it says it can detect, and refuse to judge what it cannot.
#include "conformance/bench/bench_statistics.hpp"
#include "conformance/bench/bench_summary.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace s3fault::bench {
namespace {

TEST(Summarize, MedianMinMax) {
  const auto odd = summarize({300, 100, 200});
  EXPECT_EQ(odd.median, 200);
  EXPECT_EQ(odd.min, 100);
  EXPECT_EQ(odd.max, 300);
  EXPECT_EQ(odd.samples, 3u);
  EXPECT_EQ(summarize({4, 1, 3, 2}).median, 2.5);
  EXPECT_EQ(summarize({}).samples, 0u);
}

TEST(NoiseBand, LargestRelativeDifferenceOfAPair) {
  // Pairs (100, 110) and (200, 190): 9.52 % and 5.13 %.
  const auto band = noise_band_percent({100, 200}, {110, 190});
  ASSERT_TRUE(band);
  EXPECT_NEAR(*band, 100.0 * 10 / 105, 1e-9);
  EXPECT_FALSE(noise_band_percent({0}, {0}));
  EXPECT_FALSE(noise_band_percent({}, {}));
  // A band of b % allows a/b = (200 + b) / (200 - b): 9.52 % is 110/100.
  EXPECT_NEAR(band_as_log_ratio(*band), std::log(1.1), 1e-9);
}

/// Rounds at level * e^-0.1, level, level * e^0.1: a log standard deviation of exactly 0.1.
std::vector<double> rounds_around(double level) {
  return {level * std::exp(-0.1), level, level * std::exp(0.1)};
}

TEST(CompareRounds, AHalvingWithKnownNoiseHasTheTextbookInterval) {
  // Pooled s = 0.1, se = 0.1 * sqrt(2/3), t = ln(0.5) / se = -8.49 with 4 degrees of freedom;
  // t(0.995, 4) = 4.604 and t(0.8, 4) = 0.941.
  const auto c = compare_rounds(rounds_around(800), rounds_around(400), better::higher, {});
  ASSERT_TRUE(c.judged) << c.not_judged;
  EXPECT_DOUBLE_EQ(c.baseline, 800);
  EXPECT_DOUBLE_EQ(c.current, 400);
  EXPECT_NEAR(c.delta_percent, -50, 1e-9);
  EXPECT_NEAR(c.ratio_percent, -50, 1e-9);
  EXPECT_NEAR(c.interval_low_percent, -65.667, 0.001);
  EXPECT_NEAR(c.interval_high_percent, -27.183, 0.001);
  EXPECT_LT(c.p_value, 0.002);
  EXPECT_GT(c.p_value, 0.0005);
  EXPECT_NEAR(c.detectable_drop_percent, 36.412, 0.001);
  EXPECT_NEAR(c.detectable_rise_percent, 57.263, 0.001);
  EXPECT_TRUE(c.flagged);
  EXPECT_TRUE(c.regression);
  // The same change of a latency is a regression the other way round.
  const auto latency = compare_rounds(rounds_around(4), rounds_around(8), better::lower, {});
  EXPECT_TRUE(latency.regression);
  EXPECT_FALSE(compare_rounds(rounds_around(8), rounds_around(4), better::lower, {}).regression);
  EXPECT_TRUE(compare_rounds(rounds_around(8), rounds_around(4), better::lower, {}).flagged);
}

TEST(CompareRounds, ANinetyEightPercentDropIsFlaggedHoweverWideTheBaselineSpread) {
  // The spread (max - min) / median of the baseline is 80 %: a linear noise band of that width
  // hid the drop. On logarithms it is 3.9 units away.
  const auto c = compare_rounds({400, 1000, 1200}, {19, 20, 21}, better::higher, {});
  ASSERT_TRUE(c.judged);
  EXPECT_TRUE(c.regression);
  EXPECT_NEAR(c.delta_percent, -98, 1e-9);
  EXPECT_LT(c.p_value, 0.01);
}

TEST(CompareRounds, AnUnchangedFigureIsNotFlagged) {
  const auto c = compare_rounds({100, 104, 97}, {97, 100, 104}, better::higher, {});
  ASSERT_TRUE(c.judged);
  EXPECT_FALSE(c.flagged);
  EXPECT_NEAR(c.p_value, 1, 1e-9);
  EXPECT_NEAR(c.ratio_percent, 0, 1e-9);
}

TEST(CompareRounds, ChangesUnderTheMinimumAreNotFlagged) {
  // Tight rounds make -8 % highly significant; the 10 % default floor keeps it quiet.
  const std::vector<double> before{200, 200.2, 199.8};
  const std::vector<double> after{184, 184.2, 183.8};
  const auto by_default = compare_rounds(before, after, better::higher, {});
  EXPECT_LT(by_default.p_value, 0.001);
  EXPECT_FALSE(by_default.flagged);
  // The rounds could see far less than 10 %: what they can detect is said as it is, not
  // floored at --min-change, and the figure is judged: no difference of 10 %.
  EXPECT_LT(by_default.detectable_drop_percent, 1);
  EXPECT_TRUE(by_default.conclusive);
  judging_rules five;
  five.min_change_percent = 5;
  EXPECT_TRUE(compare_rounds(before, after, better::higher, five).regression);
}

TEST(CompareRounds, ChangesWithinTheControlBandAreNotFlagged) {
  // -20 % is significant on these rounds, but back-to-back runs differed by 25 %.
  judging_rules rules;
  rules.noise_band = 25;
  const auto c = compare_rounds({1000, 1010, 990}, {800, 800, 800}, better::higher, rules);
  EXPECT_LT(c.p_value, 0.01);
  EXPECT_FALSE(c.flagged);
  EXPECT_GE(c.detectable_drop_percent, 100 - 100 * 175.0 / 225);
  rules.noise_band = 5;
  EXPECT_TRUE(compare_rounds({1000, 1010, 990}, {800, 800, 800}, better::higher, rules).flagged);
}

TEST(CompareRounds, WhatCannotBeJudgedSaysWhyAndFlagsNothing) {
  const auto one_each = compare_rounds({100}, {10}, better::higher, {});
  EXPECT_FALSE(one_each.judged);
  EXPECT_FALSE(one_each.flagged);
  EXPECT_EQ(one_each.not_judged,
            "one round on each side: no spread to judge by (use --rounds 3 or more)");
  EXPECT_DOUBLE_EQ(one_each.delta_percent, -90);

  const auto failed_baseline = compare_rounds({}, {100, 101, 99}, better::higher, {});
  EXPECT_FALSE(failed_baseline.judged);
  EXPECT_EQ(failed_baseline.not_judged,
            "the baseline has no value (every operation of the cell failed)");
  EXPECT_FALSE(compare_rounds({100, 101, 99}, {}, better::higher, {}).judged);
  const auto zero = compare_rounds({100, 101, 99}, {0, 100, 100}, better::higher, {});
  EXPECT_FALSE(zero.judged);
  EXPECT_EQ(zero.not_judged, "a round at 0 cannot be compared as a ratio");

  // One round against three has two degrees of freedom: judged.
  EXPECT_TRUE(compare_rounds({100}, rounds_around(50), better::higher, {}).judged);
}

TEST(CompareRounds, RoundsThatCouldNotSeeMinChangeCannotTell) {
  // s = 0.1 over 3 rounds a side can detect -36.4/+57.3 %: a change of 10 % is out of its
  // reach, and nothing was flagged, so the figure cannot tell (it is no pass).
  const auto weak = compare_rounds(rounds_around(1000), rounds_around(1000), better::higher, {});
  ASSERT_TRUE(weak.judged);
  EXPECT_FALSE(weak.flagged);
  EXPECT_FALSE(weak.conclusive);
  // With this noise, n rounds a side detect (t(0.995, 2n-2) + t(0.8, 2n-2)) * 0.1 * sqrt(2/n)
  // on the log scale: 0.0959 at 27 rounds, above ln 1.1 = 0.0953 (a rise of 10 %), and 0.0940
  // at 28 (the t quantiles computed apart from Boost, by integrating the density).
  ASSERT_TRUE(weak.rounds_needed);
  EXPECT_EQ(*weak.rounds_needed, 28u);
  // A halving with the same noise is flagged: it told, whatever it could detect.
  EXPECT_TRUE(
      compare_rounds(rounds_around(1000), rounds_around(500), better::higher, {}).conclusive);
}

TEST(CompareRounds, ADetectableChangeExactlyAtMinChangeIsJudged) {
  const std::vector<double> before{1000, 1010, 990};
  const std::vector<double> after{1000, 1012, 991};
  judging_rules rules;
  rules.min_change_percent = 0;
  const auto measured = compare_rounds(before, after, better::higher, rules);
  // Both sides at most --min-change: the rise is the larger of the two, so the edge is there.
  rules.min_change_percent = measured.detectable_rise_percent;
  const auto at_edge = compare_rounds(before, after, better::higher, rules);
  EXPECT_TRUE(at_edge.conclusive) << at_edge.detectable_rise_percent;
  EXPECT_EQ(std::string(change_word(figure::mib_per_second, at_edge)), "no difference");
  // A hundredth of a percent less, and the rise it could detect is beyond it.
  rules.min_change_percent = measured.detectable_rise_percent - 0.01;
  const auto beyond = compare_rounds(before, after, better::higher, rules);
  EXPECT_FALSE(beyond.conclusive);
  EXPECT_EQ(std::string(change_word(figure::mib_per_second, beyond)), "cannot tell");
  // The drop it could detect is smaller than the rise, and alone at the edge not enough.
  rules.min_change_percent = measured.detectable_drop_percent;
  EXPECT_FALSE(compare_rounds(before, after, better::higher, rules).conclusive);
}

TEST(CompareRounds, AControlBandWiderThanMinChangeCannotTellAtAnyRounds) {
  judging_rules rules;
  rules.noise_band = 25; // back-to-back runs differed by 25 %
  const auto c = compare_rounds({1000, 1001, 999}, {1000, 1001, 999}, better::higher, rules);
  EXPECT_FALSE(c.conclusive);
  EXPECT_FALSE(c.rounds_needed);
  EXPECT_TRUE(band_hides_min_change(25, 10));
  EXPECT_FALSE(band_hides_min_change(9, 10));
  EXPECT_FALSE(band_hides_min_change(std::nullopt, 10));
}

/// The fraction of `trials` comparisons flagged when this run's rounds are `effect` times the
/// baseline's, both drawn with a log standard deviation of 0.1 (fixed seed: the same each run).
double flagged_fraction(double effect, const judging_rules& rules, int trials = 20000) {
  std::mt19937_64 random(20261202);
  std::normal_distribution<double> noise(0.0, 0.1);
  int flagged = 0;
  for (int i = 0; i < trials; ++i) {
    std::vector<double> before;
    std::vector<double> after;
    for (int r = 0; r < 3; ++r) {
      before.push_back(1000 * std::exp(noise(random)));
      after.push_back(1000 * effect * std::exp(noise(random)));
    }
    flagged += compare_rounds(before, after, better::higher, rules).flagged ? 1 : 0;
  }
  return static_cast<double>(flagged) / trials;
}

TEST(CompareRounds, TheFalseAlarmRateIsAlpha) {
  judging_rules rules;
  rules.min_change_percent = 0; // the statistics alone
  for (const double alpha : {0.01, 0.05}) {
    rules.alpha = alpha;
    const double rate = flagged_fraction(1.0, rules);
    EXPECT_NEAR(rate, alpha, alpha * 0.25) << "alpha " << alpha;
  }
  // The floors only take flags away.
  EXPECT_LT(flagged_fraction(1.0, {}), 0.011);
}

TEST(CompareRounds, TheDetectableChangeIsDetectedAboutAsOftenAsStated) {
  judging_rules rules;
  rules.min_change_percent = 0;
  // With the true noise (s = 0.1, 3 rounds each) the stated detectable drop is 36.4 %.
  const auto stated =
      compare_rounds(rounds_around(1000), rounds_around(1000), better::higher, rules);
  const double drop = stated.detectable_drop_percent;
  ASSERT_NEAR(drop, 36.412, 0.001);
  const double power = flagged_fraction(1 - drop / 100, rules);
  // The statement uses the normal-theory shortcut (t quantiles added), which is close to, and a
  // little above, the exact power of the t-test with 4 degrees of freedom.
  EXPECT_GT(power, 0.65) << power;
  EXPECT_LT(power, 0.9) << power;
  // A halving is caught nearly always.
  EXPECT_GT(flagged_fraction(0.5, rules), 0.97);
}

} // namespace
} // namespace s3fault::bench
