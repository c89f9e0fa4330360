// Drift on synthetic timelines whose truth is known: a steady run is flagged at most at the
// stated false-alarm rate (blocks, not intervals, are the samples), a run whose latency grows is
// judged slower at the end, a run too short is not judged, and the store's threads and memory
// growing together give r near 1.
#include "metrics/drift.hpp"
#include "metrics/timeline_report.hpp"
#include "synthetic_timeline.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <map>
#include <random>

namespace s3fault::metrics {
namespace {

using synthetic::synthetic_timeline;

TEST(Drift, ASteadyRunIsFlaggedAtMostAtTheFalseAlarmRate) {
  drift_rules rules;
  rules.judging.alpha = 0.05;
  rules.judging.min_change_percent = 0; // the statistics alone
  // Latency: 600 steady intervals a run, p50 and p90 judged; the requests vary from interval
  // to interval so that throughput has noise too.
  const int runs = 400;
  std::size_t flagged = 0, judged = 0;
  std::mt19937_64 load(11);
  std::uniform_int_distribution<int> requests(20, 40);
  for (int run = 0; run < runs; ++run) {
    auto intervals = synthetic_timeline(600, 30, 1000 + static_cast<std::uint64_t>(run),
                                        [](std::size_t) { return 20000.0; });
    for (auto& interval : intervals) {
      interval.operations["GetObject"].bytes =
          static_cast<std::uint64_t>(requests(load)) * 1024 * 1024;
    }
    const auto drift = judge_drift(intervals, rules);
    ASSERT_EQ(drift.operations.size(), 1u);
    for (const auto& figure : drift.operations[0].figures) {
      judged += figure.result.judged;
      flagged += figure.result.flagged;
    }
  }
  const double rate = static_cast<double>(flagged) / static_cast<double>(judged);
  std::cout << "steady runs: " << flagged << " of " << judged << " figures flagged (" << rate
            << ", alpha 0.05)\n";
  EXPECT_EQ(judged, static_cast<std::size_t>(runs) * 3);
  // 1200 figures at alpha 0.05: 60 expected, the binomial's sd about 7.5; up to 0.075 allows
  // the histogram's buckets (1.6 %) a little room.
  EXPECT_LT(rate, 0.075);
  EXPECT_GT(rate, 0.025);
}

TEST(Drift, ALatencyThatGrowsIsJudgedSlowerAtTheEnd) {
  // The median latency goes from 20 ms to 40 ms over the run.
  const auto intervals = synthetic_timeline(
      600, 30, 5, [](std::size_t s) { return 20000.0 * (1 + static_cast<double>(s) / 600); });
  const auto drift = judge_drift(intervals, {});
  ASSERT_TRUE(drift.not_judged.empty()) << drift.not_judged;
  EXPECT_EQ(drift.blocks_per_side, 5u);
  EXPECT_EQ(drift.intervals_per_block, 20u);
  const auto& p50 = drift.operations.at(0).figures.at(0);
  EXPECT_EQ(p50.figure, "latency p50");
  EXPECT_EQ(drift_verdict(p50), "slower");
  EXPECT_GT(p50.result.delta_percent, 50);
  EXPECT_EQ(overall_drift_verdict(drift), "drift");
}

TEST(Drift, ASteadyRunHasNoDriftAndSaysWhatItCouldDetect) {
  const auto drift =
      judge_drift(synthetic_timeline(600, 30, 9, [](std::size_t) { return 20000.0; }), {});
  EXPECT_EQ(overall_drift_verdict(drift), "no drift") << drift_text(drift, {}, {});
  const auto& p50 = drift.operations.at(0).figures.at(0);
  EXPECT_TRUE(p50.result.conclusive);
  EXPECT_LT(p50.result.detectable_rise_percent, 10);
  EXPECT_GT(p50.result.detectable_rise_percent, 0);
  const auto text = drift_text(drift, {}, {});
  EXPECT_NE(text.find("Drift: no drift, the first sixth"), std::string::npos) << text;
  EXPECT_NE(text.find("GetObject latency p50: "), std::string::npos) << text;
  EXPECT_NE(text.find("could detect -"), std::string::npos) << text;
}

TEST(Drift, AFewNoisyBlocksCannotTell) {
  // Two requests an interval, 12 intervals: two blocks of one interval a side.
  const auto drift =
      judge_drift(synthetic_timeline(12, 2, 3, [](std::size_t) { return 20000.0; }), {});
  EXPECT_EQ(drift.blocks_per_side, 2u);
  EXPECT_EQ(overall_drift_verdict(drift), "cannot tell") << drift_text(drift, {}, {});
}

TEST(Drift, ARunTooShortIsNotJudged) {
  const auto drift =
      judge_drift(synthetic_timeline(11, 30, 3, [](std::size_t) { return 20000.0; }), {});
  EXPECT_EQ(overall_drift_verdict(drift), "not judged");
  EXPECT_EQ(drift.not_judged, "the traffic spans 11 intervals of the timeline's 11; drift needs "
                              "at least 12 (two blocks of one in each sixth)");
}

TEST(Drift, TheSixthsAreOfTheTrafficNotOfIdleTimeAroundIt) {
  // 60 idle intervals before the clients start and 60 after they stop: the sixths are of the
  // 120 in between, whose latency doubles.
  auto busy =
      synthetic_timeline(120, 30, 5, [](std::size_t s) { return s < 60 ? 20000.0 : 40000.0; });
  std::vector<timeline_interval> intervals;
  for (std::size_t i = 0; i < 240; ++i) {
    timeline_interval interval;
    if (i >= 60 && i < 180) {
      interval = busy[i - 60];
    }
    interval.start = static_cast<double>(i);
    interval.end = interval.start + 1;
    intervals.push_back(std::move(interval));
  }
  const auto drift = judge_drift(intervals, {});
  EXPECT_EQ(drift.intervals, 240u);
  EXPECT_EQ(drift.blocks_per_side, 5u);
  EXPECT_EQ(drift.intervals_per_block, 4u); // 120 / 6 = 20 a sixth
  EXPECT_DOUBLE_EQ(drift.first_sixth_end, 80);
  EXPECT_DOUBLE_EQ(drift.last_sixth_start, 160);
  EXPECT_EQ(overall_drift_verdict(drift), "drift") << drift_text(drift, {}, {});
}

TEST(Drift, ThreadsAndMemoryGrowingTogetherGiveRNearOne) {
  auto intervals = synthetic_timeline(120, 5, 1, [](std::size_t) { return 20000.0; });
  for (std::size_t i = 0; i < intervals.size(); ++i) {
    intervals[i].store = store_interval{(200 + 3 * i) << 20, (100 + 3 * i) << 20, 10 + i, 0, 0};
  }
  const auto drift = judge_drift(intervals, {});
  ASSERT_TRUE(drift.store);
  EXPECT_EQ(drift.store->samples, 120u);
  EXPECT_EQ(drift.store->peak_threads, 129u);
  EXPECT_EQ(drift.store->peak_anon_bytes, (100u + 3 * 119) << 20);
  ASSERT_TRUE(drift.store->threads_memory_r);
  EXPECT_NEAR(*drift.store->threads_memory_r, 1.0, 1e-9);
  EXPECT_LT(drift.store->first_sixth_threads, drift.store->last_sixth_threads);
}

TEST(CompareRuns, ASlowerSecondRunIsWorseAndTheSameRunIsNoDifference) {
  const auto knobs = synthetic_timeline(300, 30, 21, [](std::size_t) { return 20000.0; });
  const auto without = synthetic_timeline(300, 30, 22, [](std::size_t) { return 30000.0; });
  const auto slower = compare_runs(knobs, without, {});
  EXPECT_EQ(slower.blocks_per_run, 10u);
  EXPECT_EQ(overall_runs_verdict(slower), "worse")
      << runs_comparison_text(slower, {}, "knobs.json", "without.json");
  const auto& p50 = slower.operations.at(0).figures.at(0);
  EXPECT_EQ(drift_verdict(p50), "slower");
  EXPECT_NEAR(p50.result.delta_percent, 50, 6);
  const auto text = runs_comparison_text(slower, {}, "knobs.json", "without.json");
  EXPECT_EQ(text.rfind("without.json against knobs.json: worse, each run cut into 10 blocks", 0),
            0u)
      << text;

  const auto again = synthetic_timeline(300, 30, 23, [](std::size_t) { return 20000.0; });
  EXPECT_EQ(overall_runs_verdict(compare_runs(knobs, again, {})), "no difference");
  EXPECT_EQ(overall_runs_verdict(compare_runs(knobs, {}, {})), "not judged");
}

TEST(PearsonR, KnownValues) {
  EXPECT_NEAR(*pearson_r({1, 2, 3, 4}, {2, 4, 6, 8}), 1.0, 1e-12);
  EXPECT_NEAR(*pearson_r({1, 2, 3, 4}, {8, 6, 4, 2}), -1.0, 1e-12);
  // x = 1..5, y = 2 1 4 3 5: r = 0.8.
  EXPECT_NEAR(*pearson_r({1, 2, 3, 4, 5}, {2, 1, 4, 3, 5}), 0.8, 1e-12);
  EXPECT_FALSE(pearson_r({1, 1, 1}, {1, 2, 3})); // one never moved
  EXPECT_FALSE(pearson_r({1, 2}, {1, 2}));
}

} // namespace
} // namespace s3fault::metrics
