// Whether a run was exercised: its fault touched the object, or replaced-between-reads' reader
// read again after the replacement; and the reason given when not.
#include "conformance/gate/run_exercise.hpp"

#include <gtest/gtest.h>

namespace s3fault::gate {
namespace {

scenario fault_scenario() {
  scenario s;
  s.name = "truncate-close";
  s.needs_injection = true;
  return s;
}

scenario replacing_scenario() {
  scenario s;
  s.name = "replaced-between-reads";
  s.needs_injection = false;
  s.action = scenario_action::replace_after_first_read;
  return s;
}

TEST(RunExercise, ABaselineNeedsNothing) {
  scenario baseline;
  baseline.needs_injection = false;
  EXPECT_FALSE(run_exercise(baseline, {}, run_role::reader).needed);
}

TEST(RunExercise, AFaultThatTouchedTheObjectExercisesTheRun) {
  traffic seen;
  seen.faults_injected = 2;
  seen.faults_on_object = 1;
  const auto e = run_exercise(fault_scenario(), seen, run_role::reader);
  EXPECT_TRUE(e.needed);
  EXPECT_TRUE(e.happened);
}

TEST(RunExercise, NoInjectionAtAll) {
  const auto reader = run_exercise(fault_scenario(), {}, run_role::reader);
  EXPECT_FALSE(reader.happened);
  EXPECT_EQ(reader.why_not, "the scenario's fault never reached the reader (no injection on its "
                            "key; it read in a way no rule matches)");
  const auto writer = run_exercise(fault_scenario(), {}, run_role::writer);
  EXPECT_EQ(writer.why_not, "the scenario's fault never reached the writer (no injection on its "
                            "key; it wrote in a way no rule matches)");
}

TEST(RunExercise, FaultsOnErrorAnswersOnlyAreNamedWithWhereTheyLanded) {
  traffic seen;
  seen.faults_injected = 3;
  seen.faults_elsewhere = {"GetObject 416"};
  const auto e = run_exercise(fault_scenario(), seen, run_role::reader);
  EXPECT_FALSE(e.happened);
  EXPECT_EQ(e.why_not, "the scenario's faults were injected 3 times, but never into an answer "
                       "carrying the object (2xx): only into GetObject 416");
}

TEST(RunExercise, AReplacementTheReaderNeverReadAgainIsNotExercised) {
  const auto single_get = run_exercise(replacing_scenario(), {}, run_role::reader,
                                       {.replaced = true, .reads_after = 0});
  EXPECT_TRUE(single_get.needed);
  EXPECT_FALSE(single_get.happened);
  EXPECT_EQ(single_get.why_not, "the object was replaced after the reader's first GET, but the "
                                "reader made no GET after that, so the replacement never "
                                "reached it");
  const auto never = run_exercise(replacing_scenario(), {}, run_role::reader, {});
  EXPECT_FALSE(never.happened);
  EXPECT_EQ(never.why_not, "the reader made no successful GET, so the object was never replaced");
  EXPECT_TRUE(
      run_exercise(replacing_scenario(), {}, run_role::reader, {.replaced = true, .reads_after = 2})
          .happened);
}

} // namespace
} // namespace s3fault::gate
