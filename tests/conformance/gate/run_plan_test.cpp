// The gate's plan: the baseline first on every selected shape whatever the globs say, scenarios
// limited to their shapes, excludes, and seeds that depend on the run's names only.
#include "conformance/gate/fixture_upload.hpp"
#include "conformance/gate/run_plan.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace s3fault::gate {
namespace {

gate_matrix small_matrix() {
  gate_matrix matrix;
  scenario baseline;
  baseline.name = "baseline";
  baseline.needs_injection = false;
  scenario strip;
  strip.name = "strip";
  scenario parts;
  parts.name = "parts";
  parts.multipart_only = true;
  scenario ours;
  ours.name = "ours";
  ours.shape_globs = {"big*"};
  matrix.scenarios = {baseline, strip, parts, ours};
  object_shape small;
  small.name = "small";
  small.size = 10;
  object_shape big;
  big.name = "big-mp";
  big.size = 10 << 20;
  big.part_sizes = {5 << 20, 5 << 20};
  matrix.shapes = {small, big};
  return matrix;
}

std::vector<std::string> names(const run_plan& plan) {
  std::vector<std::string> out;
  for (const auto& run : plan.runs) {
    out.push_back(run.run_scenario->name + "/" + run.shape->name);
  }
  return out;
}

TEST(RunPlan, BaselineComesFirstOnEveryShapeThenScenariosWhereTheyApply) {
  const auto matrix = small_matrix();
  const auto plan = plan_runs(matrix, {"*"}, {"*"}, {}, 1);
  EXPECT_EQ(names(plan),
            (std::vector<std::string>{"baseline/small", "baseline/big-mp", "strip/small",
                                      "strip/big-mp", "parts/big-mp", "ours/big-mp"}));
  EXPECT_TRUE(plan.runs[0].baseline);
  EXPECT_FALSE(plan.runs[2].baseline);
  EXPECT_EQ(plan.runs[2].key, "gate/strip/small");
}

TEST(RunPlan, TheBaselineRunsEvenWhenTheGlobsLeaveItOut) {
  const auto matrix = small_matrix();
  const auto plan = plan_runs(matrix, {"strip"}, {"small"}, {}, 1);
  EXPECT_EQ(names(plan), (std::vector<std::string>{"baseline/small", "strip/small"}));
  const auto excluded = plan_runs(matrix, {"*"}, {"*"}, {"baseline", "big*", "parts"}, 1);
  EXPECT_EQ(names(excluded), (std::vector<std::string>{"baseline/small", "strip/small"}));
}

TEST(RunPlan, ASelectionOfNothingIsAnError) {
  const auto matrix = small_matrix();
  EXPECT_THROW(plan_runs(matrix, {"nope*"}, {"*"}, {}, 1), std::invalid_argument);
  EXPECT_THROW(plan_runs(matrix, {"*"}, {"nope*"}, {}, 1), std::invalid_argument);
  EXPECT_THROW(plan_runs(matrix, {"*"}, {"*"}, {"small", "big-mp"}, 1), std::invalid_argument);
  EXPECT_NO_THROW(plan_runs(matrix, {"baseline"}, {"*"}, {}, 1));
}

TEST(RunPlan, SeedsDependOnTheGateSeedAndTheRunsNamesOnly) {
  const auto matrix = small_matrix();
  const auto all = plan_runs(matrix, {"*"}, {"*"}, {}, 7);
  const auto some = plan_runs(matrix, {"strip"}, {"big*"}, {}, 7);
  EXPECT_EQ(all.runs[3].key, some.runs[1].key);
  EXPECT_EQ(all.runs[3].seed, some.runs[1].seed);
  EXPECT_EQ(all.runs[3].seed, run_seed(7, "strip", "big-mp"));
  EXPECT_NE(run_seed(7, "strip", "big-mp"), run_seed(8, "strip", "big-mp"));
  EXPECT_NE(run_seed(7, "strip", "big-mp"), run_seed(7, "strip", "small"));
}

} // namespace
} // namespace s3fault::gate
