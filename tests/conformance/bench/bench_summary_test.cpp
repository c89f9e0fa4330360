// From runs to cell summaries: medians with min and max, noise bands from control pairs, and a
// baseline comparison that flags a change only beyond the noise.
#include "conformance/bench/bench_summary.hpp"

#include <gtest/gtest.h>

namespace s3fault::bench {
namespace {

const cell get_1mib{operation::get, 1 << 20, 4};

run_result run_of(double mib_per_second, double p50_ms, unsigned round, unsigned leg = 0) {
  run_result run;
  run.measured = get_1mib;
  run.round = round;
  run.leg = leg;
  run.values[static_cast<std::size_t>(figure::mib_per_second)] = mib_per_second;
  run.values[static_cast<std::size_t>(figure::latency_p50_ms)] = p50_ms;
  run.values[static_cast<std::size_t>(figure::errors)] = 0;
  return run;
}

const spread& figure_of(const cell_summary& summary, figure f) {
  return *summary.figures[static_cast<std::size_t>(f)];
}

TEST(BenchSummary, MedianMinAndMaxOverTheRounds) {
  const auto cells = summarize_cells(
      {get_1mib}, {run_of(100, 2, 1), run_of(300, 1, 2), run_of(200, 3, 3)}, nullptr);
  ASSERT_EQ(cells.size(), 1u);
  EXPECT_EQ(cells[0].runs, 3u);
  EXPECT_EQ(figure_of(cells[0], figure::mib_per_second).median, 200);
  EXPECT_EQ(figure_of(cells[0], figure::mib_per_second).min, 100);
  EXPECT_EQ(figure_of(cells[0], figure::mib_per_second).max, 300);
  EXPECT_EQ(figure_of(cells[0], figure::latency_p50_ms).median, 2);
  // Not measured: no figure at all, rather than a zero.
  EXPECT_FALSE(cells[0].figures[static_cast<std::size_t>(figure::store_rss_max_mib)]);
  EXPECT_FALSE(cells[0].noise_percent[static_cast<std::size_t>(figure::mib_per_second)]);
}

TEST(BenchSummary, AnEvenMedianIsRoundedLikeTheFigure) {
  const auto cells =
      summarize_cells({get_1mib}, {run_of(100.01, 1.001, 1), run_of(100.02, 1.002, 2)}, nullptr);
  EXPECT_DOUBLE_EQ(figure_of(cells[0], figure::mib_per_second).median, 100.02); // 100.015 up
  EXPECT_DOUBLE_EQ(figure_of(cells[0], figure::latency_p50_ms).median, 1.002);  // 1.0015 up
}

TEST(BenchSummary, ControlPairsGiveTheNoiseBand) {
  // Pairs (100, 110) and (200, 190): 9.5 % and 5.1 %; the band is the wider one.
  const auto cells = summarize_cells(
      {get_1mib},
      {run_of(100, 1, 1, 0), run_of(110, 1, 1, 1), run_of(190, 1, 2, 1), run_of(200, 1, 2, 0)},
      nullptr);
  const auto band = cells[0].noise_percent[static_cast<std::size_t>(figure::mib_per_second)];
  ASSERT_TRUE(band);
  EXPECT_DOUBLE_EQ(*band, 9.5);
  EXPECT_EQ(cells[0].runs, 4u);
}

baseline baseline_of(double mib_per_second, double p50_ms) {
  baseline earlier;
  earlier.source = "base.csv";
  baseline_cell c;
  c.op = get_1mib.op;
  c.size = get_1mib.size;
  c.concurrency = get_1mib.concurrency;
  c.figures[static_cast<std::size_t>(figure::mib_per_second)] =
      spread{mib_per_second, mib_per_second, mib_per_second, 3};
  c.figures[static_cast<std::size_t>(figure::latency_p50_ms)] = spread{p50_ms, p50_ms, p50_ms, 3};
  earlier.cells.push_back(c);
  return earlier;
}

TEST(BenchSummary, AHalvedThroughputIsFlaggedAsSlower) {
  const auto earlier = baseline_of(200, 1);
  const auto cells = summarize_cells(
      {get_1mib}, {run_of(100, 2, 1), run_of(101, 2, 2), run_of(99, 2, 3)}, &earlier);
  const auto& throughput =
      *cells[0].versus_baseline[static_cast<std::size_t>(figure::mib_per_second)];
  EXPECT_TRUE(throughput.flagged);
  EXPECT_TRUE(throughput.regression);
  EXPECT_DOUBLE_EQ(throughput.delta_percent, -50);
  EXPECT_EQ(change_word(figure::mib_per_second, throughput), "slower");
  const auto& latency = *cells[0].versus_baseline[static_cast<std::size_t>(figure::latency_p50_ms)];
  EXPECT_EQ(change_word(figure::latency_p50_ms, latency), "worse");
  const auto found = regressions(cells);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0], "get 1MiB c=4 MiB/s -50.0%");
}

TEST(BenchSummary, ChangesWithinTheRoundsSpreadAreNotFlagged) {
  // Rounds 180..218 around 190: a spread of 20 %, so 200 -> 190 (-5 %) is noise.
  const auto earlier = baseline_of(200, 1);
  const auto cells = summarize_cells(
      {get_1mib}, {run_of(180, 1, 1), run_of(190, 1, 2), run_of(218, 1, 3)}, &earlier, 5);
  const auto& throughput =
      *cells[0].versus_baseline[static_cast<std::size_t>(figure::mib_per_second)];
  EXPECT_FALSE(throughput.flagged);
  EXPECT_DOUBLE_EQ(throughput.threshold_percent, 20);
  EXPECT_EQ(change_word(figure::mib_per_second, throughput), "");
  EXPECT_TRUE(regressions(cells).empty());
}

TEST(BenchSummary, ChangesBelowTheMinimumAreNotFlagged) {
  // Tight rounds (no noise to speak of), 200 -> 184: -8 %, below the default 10 % minimum and
  // above a 5 % one.
  const auto earlier = baseline_of(200, 1);
  const std::vector<run_result> runs{run_of(184, 1, 1), run_of(184, 1, 2)};
  const auto by_default = summarize_cells({get_1mib}, runs, &earlier);
  EXPECT_FALSE(by_default[0].versus_baseline[0]->flagged);
  EXPECT_DOUBLE_EQ(by_default[0].versus_baseline[0]->threshold_percent, 10);
  const auto stricter = summarize_cells({get_1mib}, runs, &earlier, 5);
  EXPECT_TRUE(stricter[0].versus_baseline[0]->flagged);
}

TEST(BenchSummary, ControlNoiseAndRoundSpreadTheWiderCounts) {
  // Control pairs differ by 2 %, but the rounds spread 100..130 (26 %): a -20 % change is noise.
  const auto earlier = baseline_of(140, 1);
  const auto cells = summarize_cells(
      {get_1mib},
      {run_of(100, 1, 1, 0), run_of(102, 1, 1, 1), run_of(130, 1, 2, 0), run_of(127.4, 1, 2, 1)},
      &earlier);
  const auto& throughput = *cells[0].versus_baseline[0];
  EXPECT_GT(throughput.threshold_percent, 25);
  EXPECT_FALSE(throughput.flagged);
}

TEST(BenchSummary, AnImprovementIsFlaggedButIsNoRegression) {
  const auto earlier = baseline_of(100, 2);
  const auto cells = summarize_cells({get_1mib}, {run_of(200, 1, 1)}, &earlier);
  const auto& throughput =
      *cells[0].versus_baseline[static_cast<std::size_t>(figure::mib_per_second)];
  EXPECT_TRUE(throughput.flagged);
  EXPECT_FALSE(throughput.regression);
  EXPECT_EQ(change_word(figure::mib_per_second, throughput), "faster");
  EXPECT_TRUE(regressions(cells).empty());
}

TEST(BenchSummary, ACellTheBaselineLacksIsNotCompared) {
  auto earlier = baseline_of(100, 2);
  earlier.cells[0].concurrency = 8;
  const auto cells = summarize_cells({get_1mib}, {run_of(50, 1, 1)}, &earlier);
  for (const auto& c : cells[0].versus_baseline) {
    EXPECT_FALSE(c);
  }
}

} // namespace
} // namespace s3fault::bench
