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

std::string plan_error(const gate_matrix& matrix, const std::vector<std::string>& scenarios,
                       const std::vector<std::string>& shapes,
                       const std::vector<std::string>& exclude) {
  try {
    plan_runs(matrix, scenarios, shapes, exclude, 1);
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "";
}

TEST(RunPlan, EveryUnknownNameIsRefusedWithTheNearestNamesEvenBesideKnownOnes) {
  const auto matrix = small_matrix();
  EXPECT_EQ(plan_error(matrix, {"strip", "strp", "partz"}, {"*"}, {}),
            "--scenarios: no scenario matches 'strp' (nearest: strip), nor 'partz' (nearest: "
            "parts) ('s3fault gate --list' shows the names)");
  EXPECT_EQ(plan_error(matrix, {"*"}, {"small", "smal"}, {}),
            "--shapes: no shape matches 'smal' (nearest: small) ('s3fault gate --list' shows the "
            "names)");
  EXPECT_EQ(plan_error(matrix, {"*"}, {"*"}, {"big-mp", "bigmp"}),
            "--exclude: no scenario or shape matches 'bigmp' (nearest: big-mp) ('s3fault gate "
            "--list' shows the names)");
  EXPECT_EQ(plan_error(matrix, {"x*", "strip"}, {"*"}, {"big*"}),
            "--scenarios: no scenario matches 'x*' ('s3fault gate --list' shows the names)");
  EXPECT_EQ(plan_error(matrix, {"baseline", "str*"}, {"big*", "sm*"}, {"ours"}), "");
}

TEST(RunPlan, AScenarioThatAppliesToNoSelectedShapeIsListedWithWhy) {
  const auto matrix = small_matrix();
  const auto plan = plan_runs(matrix, {"*"}, {"small"}, {}, 1);
  EXPECT_EQ(names(plan), (std::vector<std::string>{"baseline/small", "strip/small"}));
  ASSERT_EQ(plan.unplanned.size(), 2u);
  EXPECT_EQ(plan.unplanned[0].selected->name, "parts");
  EXPECT_EQ(plan.unplanned[0].reason, "needs a multipart shape; none selected");
  EXPECT_EQ(plan.unplanned[1].selected->name, "ours");
  EXPECT_EQ(plan.unplanned[1].reason, "runs only on the shapes big*; none selected");
  EXPECT_TRUE(plan_runs(matrix, {"*"}, {"*"}, {}, 1).unplanned.empty());
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
