// Bench statistics on figures whose answers are known: medians of odd and even rounds, the
// noise band of control pairs, and baseline comparisons that flag a 2x slowdown but not a
// re-run inside the noise.
#include "conformance/bench/bench_statistics.hpp"

#include <gtest/gtest.h>

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
}

TEST(CompareWithBaseline, ATwofoldSlowdownIsARegression) {
  const auto throughput = compare_with_baseline(800, 400, better::higher, 8.0);
  EXPECT_TRUE(throughput.flagged);
  EXPECT_TRUE(throughput.regression);
  EXPECT_DOUBLE_EQ(throughput.delta_percent, -50.0);
  const auto latency = compare_with_baseline(10, 20, better::lower, 8.0);
  EXPECT_TRUE(latency.regression);
}

TEST(CompareWithBaseline, ChangesInsideTheNoiseAreNotFlagged) {
  const auto rerun = compare_with_baseline(800, 760, better::higher, 8.0);
  EXPECT_FALSE(rerun.flagged);
  EXPECT_EQ(rerun.threshold_percent, 8.0);
  // Without a known noise band the floor still keeps small changes quiet.
  EXPECT_FALSE(compare_with_baseline(100, 104, better::higher, std::nullopt).flagged);
  EXPECT_TRUE(compare_with_baseline(100, 120, better::higher, std::nullopt).flagged);
}

TEST(CompareWithBaseline, ImprovementsAreFlaggedButNotRegressions) {
  const auto faster = compare_with_baseline(400, 800, better::higher, 8.0);
  EXPECT_TRUE(faster.flagged);
  EXPECT_FALSE(faster.regression);
  EXPECT_TRUE(compare_with_baseline(0, 3, better::lower, std::nullopt).regression);
}

} // namespace
} // namespace s3fault::bench
