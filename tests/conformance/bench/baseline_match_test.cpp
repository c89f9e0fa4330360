// Whether a baseline was measured as this bench is: every setting the file records that differs
// is one line, cells the baseline lacks are named, and a file that records nothing says so.
#include "conformance/bench/baseline_match.hpp"

#include <gtest/gtest.h>

namespace s3fault::bench {
namespace {

bench_settings current() {
  bench_settings settings;
  settings.operations = {operation::named("get")};
  settings.sizes = {1024 * 1024};
  settings.concurrencies = {4};
  settings.duration = std::chrono::milliseconds(1000);
  return settings;
}

baseline recorded_as(const bench_settings& s) {
  baseline earlier;
  earlier.source = "base.json";
  earlier.settings.duration_ms = s.duration.count();
  earlier.settings.rounds = s.rounds;
  earlier.settings.objects = s.objects;
  earlier.settings.part_size = s.part_size;
  earlier.settings.verify = s.verify;
  earlier.settings.control = s.control;
  for (const auto& c : plan_cells(s)) {
    baseline_cell b;
    b.op = c.op;
    b.size = c.size;
    b.concurrency = c.concurrency;
    earlier.cells.push_back(b);
  }
  return earlier;
}

TEST(BaselineMatch, TheSameSettingsMatch) {
  const auto settings = current();
  EXPECT_TRUE(baseline_mismatches(settings, plan_cells(settings), recorded_as(settings)).empty());
}

TEST(BaselineMatch, EachDifferenceIsOneLine) {
  const auto settings = current();
  auto other = settings;
  other.duration = std::chrono::milliseconds(2000);
  other.rounds = 5;
  other.verify = false;
  other.control = true;
  other.part_size = 16 * 1024 * 1024;
  other.objects = 100;
  other.mix = {{operation::named("get"), 1}};
  auto earlier = recorded_as(other);
  earlier.settings.mix = describe_mix(other.mix);
  const auto found = baseline_mismatches(settings, plan_cells(settings), earlier);
  const std::vector<std::string> expected{
      "--duration: 1s here, 2s in the baseline",    "--rounds: 3 here, 5 in the baseline",
      "--objects: 8 here, 100 in the baseline",     "--part-size: 8MiB here, 16MiB in the baseline",
      "verification: on here, off in the baseline", "--control: off here, on in the baseline",
      "--mix: none here, get=1 in the baseline"};
  EXPECT_EQ(found, expected);
}

TEST(BaselineMatch, CountAgainstDurationAndMissingCells) {
  auto settings = current();
  settings.count = 50;
  settings.concurrencies = {4, 8};
  const auto found = baseline_mismatches(settings, plan_cells(settings), recorded_as(current()));
  const std::vector<std::string> expected{"--count 50 here, --duration 1s in the baseline",
                                          "get 1MiB c=8: not in the baseline"};
  EXPECT_EQ(found, expected);
}

TEST(BaselineMatch, AFileThatRecordsNoSettingsSaysSo) {
  const auto settings = current();
  auto earlier = recorded_as(settings);
  earlier.settings = {};
  const auto found = baseline_mismatches(settings, plan_cells(settings), earlier);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0], "base.json does not say how it was measured (a file of an older s3fault "
                      "bench): its settings cannot be checked");
}

TEST(MixDraw, EachOperationComesAsOftenAsItsWeightAndTheSameEveryRound) {
  const std::vector<std::pair<operation, unsigned>> mix{{operation::named("get"), 70},
                                                        {operation::named("put"), 20},
                                                        {operation::named("delete"), 10}};
  std::map<operation, int> drawn;
  for (std::uint64_t index = 0; index < 100000; ++index) {
    ++drawn[pick_from_mix(mix, index, 1)];
  }
  EXPECT_NEAR(drawn[operation::named("get")], 70000, 700);
  EXPECT_NEAR(drawn[operation::named("put")], 20000, 600);
  EXPECT_NEAR(drawn[operation::named("delete")], 10000, 450);
  for (std::uint64_t index = 0; index < 100; ++index) {
    EXPECT_EQ(pick_from_mix(mix, index, 1), pick_from_mix(mix, index, 1));
  }
  EXPECT_EQ(describe_mix(mix), "get=70,put=20,delete=10");
}

} // namespace
} // namespace s3fault::bench
