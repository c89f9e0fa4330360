// From runs to cell summaries: medians with min and max, noise bands from control pairs, and
// the one comparison engine, against a baseline or a reference store, that flags a change only
// beyond the noise.
#include "conformance/bench/comparison_engine.hpp"

#include <gtest/gtest.h>

namespace s3fault::bench {
namespace {

const cell get_1mib{operation::named("get"), 1 << 20, 4};

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

/// The summaries of one store's runs, judged against `earlier` when there is one.
std::vector<cell_summary> summarized(const std::vector<cell>& cells,
                                     const std::vector<run_result>& runs, const baseline* earlier) {
  auto summaries = summarize_cells(cells, 1, runs);
  if (earlier != nullptr) {
    compare_with_baseline(summaries, *earlier, {});
  }
  return summaries;
}

const spread& figure_of(const cell_summary& summary, figure f) {
  return *summary.figures[static_cast<std::size_t>(f)];
}

TEST(BenchSummary, MedianMinAndMaxOverTheRounds) {
  const auto cells =
      summarized({get_1mib}, {run_of(100, 2, 1), run_of(300, 1, 2), run_of(200, 3, 3)}, nullptr);
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
      summarized({get_1mib}, {run_of(100.01, 1.001, 1), run_of(100.02, 1.002, 2)}, nullptr);
  EXPECT_DOUBLE_EQ(figure_of(cells[0], figure::mib_per_second).median, 100.02); // 100.015 up
  EXPECT_DOUBLE_EQ(figure_of(cells[0], figure::latency_p50_ms).median, 1.002);  // 1.0015 up
}

TEST(BenchSummary, ControlPairsGiveTheNoiseBand) {
  // Pairs (100, 110) and (200, 190): 9.5 % and 5.1 %; the band is the wider one.
  const auto cells = summarized(
      {get_1mib},
      {run_of(100, 1, 1, 0), run_of(110, 1, 1, 1), run_of(190, 1, 2, 1), run_of(200, 1, 2, 0)},
      nullptr);
  const auto band = cells[0].noise_percent[static_cast<std::size_t>(figure::mib_per_second)];
  ASSERT_TRUE(band);
  EXPECT_DOUBLE_EQ(*band, 9.5);
  EXPECT_EQ(cells[0].runs, 4u);
}

baseline baseline_of(std::vector<double> mib_per_second, std::vector<double> p50_ms) {
  baseline earlier;
  earlier.source = "base.csv";
  baseline_cell c;
  c.op = get_1mib.op;
  c.size = get_1mib.size;
  c.concurrency = get_1mib.concurrency;
  const auto mib = static_cast<std::size_t>(figure::mib_per_second);
  const auto p50 = static_cast<std::size_t>(figure::latency_p50_ms);
  c.figures[mib] = summarize(mib_per_second);
  c.figures[p50] = summarize(p50_ms);
  c.rounds[mib] = std::move(mib_per_second);
  c.rounds[p50] = std::move(p50_ms);
  earlier.cells.push_back(c);
  return earlier;
}

const comparison& versus(const cell_summary& summary, figure f) {
  return *summary.versus[static_cast<std::size_t>(f)];
}

TEST(BenchSummary, RoundsAreKeptAndAControlPairIsOneRound) {
  // Round 1: 100 and 121 (geometric mean 110); round 2: 200 alone.
  const auto cells = summarized(
      {get_1mib}, {run_of(100, 1, 1, 0), run_of(121, 1, 1, 1), run_of(200, 1, 2, 0)}, nullptr);
  const auto& rounds = cells[0].rounds[static_cast<std::size_t>(figure::mib_per_second)];
  ASSERT_EQ(rounds.size(), 2u);
  EXPECT_DOUBLE_EQ(rounds[0], 110);
  EXPECT_DOUBLE_EQ(rounds[1], 200);
}

TEST(BenchSummary, AHalvedThroughputIsFlaggedAsSlower) {
  const auto earlier = baseline_of({200, 204, 198}, {1, 1.01, 0.99});
  const auto cells = summarized(
      {get_1mib}, {run_of(100, 2, 1), run_of(101, 2.02, 2), run_of(99, 1.98, 3)}, &earlier);
  const auto& throughput = versus(cells[0], figure::mib_per_second);
  EXPECT_TRUE(throughput.flagged);
  EXPECT_TRUE(throughput.regression);
  EXPECT_DOUBLE_EQ(throughput.delta_percent, -50);
  EXPECT_EQ(change_word(figure::mib_per_second, throughput), "slower");
  EXPECT_EQ(change_word(figure::latency_p50_ms, versus(cells[0], figure::latency_p50_ms)), "worse");
  const auto counts = count_comparisons(cells);
  EXPECT_EQ(counts.compared, 2u);
  EXPECT_EQ(counts.regressions, 2u);
  EXPECT_EQ(counts.not_judged, 0u);
}

TEST(BenchSummary, ARerunWithinItsNoiseIsNotFlagged) {
  const auto earlier = baseline_of({180, 200, 220}, {1, 1.1, 0.9});
  const auto cells = summarized(
      {get_1mib}, {run_of(185, 1, 1), run_of(215, 1.05, 2), run_of(196, 0.95, 3)}, &earlier);
  const auto& throughput = versus(cells[0], figure::mib_per_second);
  EXPECT_TRUE(throughput.judged);
  EXPECT_FALSE(throughput.flagged);
  // Rounds 10 % apart cannot see a change of 10 %: not flagged, and not a pass either.
  EXPECT_FALSE(throughput.conclusive);
  EXPECT_EQ(change_word(figure::mib_per_second, throughput), "cannot tell");
  EXPECT_EQ(count_comparisons(cells).regressions, 0u);
  EXPECT_EQ(count_comparisons(cells).inconclusive, 2u);
}

TEST(BenchSummary, TheWiderControlBandOfBothRunsCounts) {
  // This run's pairs differ by 2 %; the baseline's band is 30 %: a -20 % change is noise.
  auto earlier = baseline_of({140, 141, 139}, {1, 1, 1});
  const auto mib = static_cast<std::size_t>(figure::mib_per_second);
  earlier.cells[0].noise_percent[mib] = 30;
  const std::vector<run_result> runs{run_of(112, 1, 1, 0),   run_of(114, 1, 1, 1),
                                     run_of(112.5, 1, 2, 0), run_of(110.3, 1, 2, 1),
                                     run_of(111, 1, 3, 0),   run_of(113, 1, 3, 1)};
  const auto cells = summarized({get_1mib}, runs, &earlier);
  EXPECT_FALSE(versus(cells[0], figure::mib_per_second).flagged);
  earlier.cells[0].noise_percent[mib] = 3;
  EXPECT_TRUE(versus(summarized({get_1mib}, runs, &earlier)[0], figure::mib_per_second).regression);
}

TEST(BenchSummary, ABaselineWhoseOperationsAllFailedIsNotJudged) {
  // The failed cell has no MiB/s or latency at all (not 0), so a healthy run is not "+100 %".
  auto earlier = baseline_of({}, {});
  earlier.cells[0].figures = {};
  const auto cells =
      summarized({get_1mib}, {run_of(100, 1, 1), run_of(101, 1, 2), run_of(99, 1, 3)}, &earlier);
  const auto& throughput = versus(cells[0], figure::mib_per_second);
  EXPECT_FALSE(throughput.judged);
  EXPECT_FALSE(throughput.regression);
  EXPECT_EQ(change_word(figure::mib_per_second, throughput), "not judged");
  EXPECT_EQ(throughput.not_judged, "the baseline has no value (every operation of the cell "
                                   "failed)");
  EXPECT_EQ(count_comparisons(cells).regressions, 0u);
  EXPECT_EQ(count_comparisons(cells).not_judged, 2u);
}

TEST(BenchSummary, AFigureNeitherSideHasIsNotCompared) {
  // ops/s was measured by neither run: nothing to judge, and nothing held against the run.
  const auto earlier = baseline_of({200, 204, 198}, {1, 1, 1});
  const auto cells =
      summarized({get_1mib}, {run_of(200, 1, 1), run_of(202, 1, 2), run_of(199, 1, 3)}, &earlier);
  EXPECT_FALSE(cells[0].versus[static_cast<std::size_t>(figure::ops_per_second)]);
  EXPECT_EQ(count_comparisons(cells).not_judged, 0u);
}

TEST(BenchSummary, ACellTheBaselineLacksIsNotCompared) {
  auto earlier = baseline_of({100}, {2});
  earlier.cells[0].concurrency = 8;
  const auto cells = summarized({get_1mib}, {run_of(50, 1, 1)}, &earlier);
  for (const auto& c : cells[0].versus) {
    EXPECT_FALSE(c);
  }
}

run_result on_store(run_result run, std::size_t store) {
  run.store = store;
  return run;
}

TEST(BenchSummary, StoresAreComparedWithTheFirstCellByCell) {
  // Store a at 200 MiB/s, b at half that, c the same as a; rounds within 1 %.
  std::vector<run_result> runs;
  for (unsigned round = 1; round <= 3; ++round) {
    const double wobble = 1 + 0.005 * round;
    runs.push_back(on_store(run_of(200 * wobble, 1 * wobble, round), 0));
    runs.push_back(on_store(run_of(100 * wobble, 2 * wobble, round), 1));
    runs.push_back(on_store(run_of(200 / wobble, 1 / wobble, round), 2));
  }
  auto cells = summarize_cells({get_1mib}, 3, runs);
  compare_with_first_store(cells, {"a", "b", "c"}, {});
  ASSERT_EQ(cells.size(), 3u);
  EXPECT_EQ(cells[0].store, 0u);
  // The reference has nothing to be compared with.
  for (const auto& c : cells[0].versus) {
    EXPECT_FALSE(c);
  }
  const auto& b = versus(cells[1], figure::mib_per_second);
  EXPECT_TRUE(b.flagged);
  EXPECT_NEAR(b.delta_percent, -50, 0.01);
  EXPECT_EQ(change_word(figure::mib_per_second, b), "slower");
  EXPECT_EQ(change_word(figure::latency_p50_ms, versus(cells[1], figure::latency_p50_ms)), "worse");
  const auto& c = versus(cells[2], figure::mib_per_second);
  EXPECT_FALSE(c.flagged);
  EXPECT_EQ(change_word(figure::mib_per_second, c), "no difference") << c.detectable_rise_percent;
  const auto counts = count_comparisons(cells);
  EXPECT_EQ(counts.compared, 4u);
  EXPECT_EQ(counts.differences, 2u);
}

TEST(BenchSummary, AStoreThatFailedEveryOperationOfACellIsNamed) {
  std::vector<run_result> runs;
  for (unsigned round = 1; round <= 2; ++round) {
    runs.push_back(on_store(run_of(200, 1, round), 0));
    run_result failed = on_store(run_of(0, 0, round), 1);
    failed.values = {}; // no rate or latency at all: not 0
    failed.values[static_cast<std::size_t>(figure::errors)] = 40;
    runs.push_back(failed);
  }
  auto cells = summarize_cells({get_1mib}, 2, runs);
  compare_with_first_store(cells, {"minio", "garage"}, {});
  const auto& throughput = versus(cells[1], figure::mib_per_second);
  EXPECT_FALSE(throughput.judged);
  EXPECT_EQ(throughput.not_judged, "garage has no value (every operation of the cell failed)");
}

} // namespace
} // namespace s3fault::bench
