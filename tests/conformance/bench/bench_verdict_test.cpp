// The verdict of a store comparison, on reports made here with known rounds: per operation the
// range of the ratios over its cells, the cells that could not tell or were not judged counted
// in the same line, and the exit status of a comparison whose slower store is a finding.
#include "conformance/bench/bench_verdict.hpp"

#include <gtest/gtest.h>

namespace s3fault::bench {
namespace {

/// A bench of get 1MiB at three concurrencies on stores a and b, 4 rounds each, a's throughput
/// `level` MiB/s (within 1 % from round to round) and b's `ratios[i]` times a's in cell i.
struct two_stores {
  bench_settings settings;
  bench_report report;

  explicit two_stores(std::vector<double> ratios, double level = 1000) {
    settings.operations = {operation::named("get")};
    settings.sizes = {1 << 20};
    settings.concurrencies = {1, 4, 16};
    settings.rounds = 4;
    settings.stores = {{"a", {}, {}}, {"b", {}, {}}};
    report.settings = &settings;
    report.stores = {{"a", "http://127.0.0.1:1", "x-1"}, {"b", "http://127.0.0.1:2", "x-2"}};
    report.cells = plan_cells(settings);
    for (unsigned round = 1; round <= 4; ++round) {
      const double wobble = 1 + 0.01 * ((round % 2) - 0.5);
      for (std::size_t i = 0; i < report.cells.size(); ++i) {
        add_run(i, 0, round, level * wobble);
        add_run(i, 1, round, level * ratios[i] / wobble);
      }
    }
    summarize_and_compare(report, nullptr);
  }

  void add_run(std::size_t cell, std::size_t store, unsigned round, double mib_per_second) {
    run_result run;
    run.measured = report.cells[cell];
    run.cell_index = cell;
    run.store = store;
    run.round = round;
    set_figure(run.values, figure::mib_per_second, mib_per_second);
    set_figure(run.values, figure::errors, 0);
    report.runs.push_back(run);
  }
};

TEST(StoreVerdict, OneSlowerStoreIsSummedUpAsTheRangeOfItsRatios) {
  two_stores slower({0.21, 0.25, 0.23});
  const auto verdict = verdict_of(slower.report);
  EXPECT_EQ(verdict.decided, bench_verdict::outcome::judged);
  EXPECT_EQ(verdict.headline, "Verdict: judged: b compared with a (the reference) on 3 figures of "
                              "3 cells, every one able to tell a change of 10.0 % "
                              "(--min-change) from none");
  ASSERT_EQ(verdict.details.size(), 1u);
  EXPECT_EQ(verdict.details[0],
            "get MiB/s, b against a: 4.0x-4.8x slower in 3 of 3 cells (0.21x-0.25x of a)");
  // Slower is a finding, not a failure.
  EXPECT_EQ(bench_exit_status(slower.report), 0);
}

TEST(StoreVerdict, MixedCellsAreEachCountedInTheLine) {
  // Cell 1 b faster, cell 2 no different (within 1 %), cell 3 half as fast.
  two_stores mixed({1.5, 1.004, 0.5});
  const auto verdict = verdict_of(mixed.report);
  ASSERT_EQ(verdict.details.size(), 1u);
  EXPECT_EQ(verdict.details[0],
            "get MiB/s, b against a: 2.0x slower in 1 of 3 cells (0.50x of a); 1.5x faster in 1 "
            "of 3 cells (1.50x of a); no difference in 1 of 3 cells (1.00x of a)");
}

TEST(StoreVerdict, ACellThatCouldNotTellIsCountedNotHidden) {
  two_stores noisy({0.5, 0.5, 0.5});
  // Cell 3's rounds of b scattered by a factor of two: no rate it could tell from a's.
  for (auto& run : noisy.report.runs) {
    if (run.store == 1 && run.cell_index == 2) {
      set_figure(run.values, figure::mib_per_second, run.round % 2 == 0 ? 1400 : 700);
    }
  }
  summarize_and_compare(noisy.report, nullptr);
  const auto verdict = verdict_of(noisy.report);
  EXPECT_EQ(verdict.decided, bench_verdict::outcome::inconclusive);
  EXPECT_EQ(verdict.details[0], "get MiB/s, b against a: 2.0x slower in 2 of 3 cells (0.50x of "
                                "a); could not tell in 1 of 3 cells");
  EXPECT_TRUE(verdict.details[1].starts_with("the smallest change these rounds could detect: "))
      << verdict.details[1];
  EXPECT_TRUE(verdict.details[2].starts_with("get 1MiB c=16 MiB/s, b against a: cannot tell: "))
      << verdict.details[2];
  EXPECT_EQ(bench_exit_status(noisy.report), 1);
  noisy.settings.allow_inconclusive = true;
  EXPECT_EQ(bench_exit_status(noisy.report), 0);
}

TEST(StoreVerdict, AStoreWithNoValueInACellIsNamedAndDoesNotPass) {
  two_stores failed({0.5, 0.5, 0.5});
  std::erase_if(failed.report.runs,
                [](const run_result& run) { return run.store == 1 && run.cell_index == 0; });
  for (unsigned round = 1; round <= 4; ++round) {
    run_result run;
    run.measured = failed.report.cells[0];
    run.store = 1;
    run.round = round;
    set_figure(run.values, figure::errors, 12); // every operation failed: no rate at all
    failed.report.runs.push_back(run);
  }
  summarize_and_compare(failed.report, nullptr);
  const auto verdict = verdict_of(failed.report);
  EXPECT_EQ(verdict.decided, bench_verdict::outcome::not_judged);
  EXPECT_EQ(verdict.details.back(), "get 1MiB c=1 MiB/s, b against a: not judged: b has no value "
                                    "(every operation of the cell failed)");
  EXPECT_EQ(verdict.details[0], "get MiB/s, b against a: 2.0x slower in 2 of 3 cells (0.50x of "
                                "a); not judged in 1 of 3 cells");
  EXPECT_EQ(bench_exit_status(failed.report), 1);
}

TEST(StoreVerdict, TheStoresRotateSoThatEachTakesEachPlace) {
  EXPECT_EQ(run_order(2, 1), (std::vector<std::size_t>{0, 1}));
  EXPECT_EQ(run_order(2, 2), (std::vector<std::size_t>{1, 0}));
  EXPECT_EQ(run_order(3, 3), (std::vector<std::size_t>{2, 0, 1}));
  EXPECT_EQ(run_order(3, 4), (std::vector<std::size_t>{0, 1, 2}));
  // Over as many rounds as stores, each store runs in each place once.
  for (std::size_t stores = 1; stores <= 4; ++stores) {
    std::vector<std::vector<int>> places(stores, std::vector<int>(stores, 0));
    for (unsigned round = 1; round <= stores; ++round) {
      const auto order = run_order(stores, round);
      for (std::size_t place = 0; place < stores; ++place) {
        ++places[order[place]][place];
      }
    }
    for (const auto& store : places) {
      EXPECT_EQ(store, std::vector<int>(stores, 1));
    }
  }
  EXPECT_EQ(default_rounds(1), 3u);
  EXPECT_EQ(default_rounds(2), 4u);
  EXPECT_EQ(default_rounds(3), 3u);
  EXPECT_EQ(default_rounds(5), 5u);
}

} // namespace
} // namespace s3fault::bench
