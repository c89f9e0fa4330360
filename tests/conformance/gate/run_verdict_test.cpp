// Verdicts from a reader's exit and output, which expectations accept them, and when a run may
// count at all (its fault fired; its shape's baseline was read).
#include "conformance/gate/run_verdict.hpp"

#include <gtest/gtest.h>

namespace s3fault::gate {
namespace {

constexpr auto recover = expectation::must_recover;
constexpr auto not_corrupt = expectation::must_not_corrupt;
constexpr auto info = expectation::informational;

/// A run of a scenario that needs no injection (baseline).
judged_run judge(int exit_code, std::string_view output, std::string_view expected,
                 expectation expect, bool timed_out = false, std::string_view also = "") {
  run_evidence evidence;
  evidence.timed_out = timed_out;
  evidence.exit_code = exit_code;
  evidence.output = output;
  evidence.expected = expected;
  evidence.also_correct = also;
  evidence.expect = expect;
  evidence.timeout_seconds = 30;
  return judge_run(evidence);
}

/// A run of a fault scenario whose fault touched the object `injections` times.
judged_run judge_fault(int exit_code, std::string_view output, std::string_view expected,
                       expectation expect, std::uint64_t injections) {
  run_evidence evidence;
  evidence.exit_code = exit_code;
  evidence.output = output;
  evidence.expected = expected;
  evidence.expect = expect;
  evidence.exercised = {.needed = true, .happened = injections > 0, .why_not = "no fault came"};
  return judge_run(evidence);
}

TEST(JudgeRun, RightBytesAreCorrectEverywhere) {
  const auto run = judge(0, "abcdef", "abcdef", recover);
  EXPECT_EQ(run.result, verdict::correct);
  EXPECT_TRUE(run.passed());
}

TEST(JudgeRun, ShortOutputWithExitZeroIsSilentCorruption) {
  const auto run = judge(0, "abc", "abcdef", not_corrupt);
  EXPECT_EQ(run.result, verdict::silent_corruption);
  EXPECT_EQ(run.outcome, run_outcome::failed);
  EXPECT_EQ(run.expected_bytes, 6u);
  EXPECT_EQ(run.actual_bytes, 3u);
  ASSERT_TRUE(run.first_difference);
  EXPECT_EQ(*run.first_difference, 3u);
  EXPECT_EQ(run.why, "exit 0 with 3 of 6 bytes; first difference at offset 3");
}

TEST(JudgeRun, FlippedByteIsFoundWhereItIs) {
  const auto run = judge(0, "abXdef", "abcdef", info);
  EXPECT_EQ(run.result, verdict::silent_corruption);
  EXPECT_FALSE(run.passed()) << "silent corruption fails even informational scenarios";
  EXPECT_EQ(*run.first_difference, 2u);
}

TEST(JudgeRun, NonZeroExitIsRejectedAndFailsOnlyMustRecover) {
  EXPECT_EQ(judge(1, "", "abc", recover).result, verdict::rejected);
  EXPECT_FALSE(judge(1, "", "abc", recover).passed());
  EXPECT_TRUE(judge(1, "", "abc", not_corrupt).passed());
  EXPECT_TRUE(judge(255, "abc", "abc", info).passed());
}

TEST(JudgeRun, TimeoutIsHungAndAlwaysFails) {
  const auto run = judge(137, "abc", "abc", info, true);
  EXPECT_EQ(run.result, verdict::hung);
  EXPECT_FALSE(run.passed());
  EXPECT_NE(run.why.find("30 s"), std::string::npos) << run.why;
}

TEST(JudgeRun, EitherVersionOfAReplacedObjectIsCorrectButAMixIsNot) {
  EXPECT_EQ(judge(0, "NEWNEW", "oldold", not_corrupt, false, "NEWNEW").result, verdict::correct);
  EXPECT_EQ(judge(0, "oldNEW", "oldold", not_corrupt, false, "NEWNEW").result,
            verdict::silent_corruption);
}

TEST(JudgeRun, APassWithoutAnInjectionIsNotExercised) {
  for (const auto expect : {recover, not_corrupt, info}) {
    const auto run = judge_fault(0, "abc", "abc", expect, 0);
    EXPECT_EQ(run.result, verdict::not_exercised);
    EXPECT_EQ(run.observed, verdict::correct);
    EXPECT_EQ(run.outcome, run_outcome::not_exercised);
    EXPECT_FALSE(run.passed());
    EXPECT_EQ(run.why, "no fault came, so CORRECT says nothing");
  }
  const auto rejected = judge_fault(1, "", "abc", not_corrupt, 0);
  EXPECT_EQ(rejected.outcome, run_outcome::not_exercised) << "REJECTED would pass: not counted";
  EXPECT_EQ(rejected.observed, verdict::rejected);
}

TEST(JudgeRun, AFailureCountsWhetherTheFaultFiredOrNot) {
  // Wrong bytes with no fault at all are wrong too: never hidden as NOT_EXERCISED.
  EXPECT_EQ(judge_fault(0, "ab", "abc", not_corrupt, 0).outcome, run_outcome::failed);
  EXPECT_EQ(judge_fault(1, "", "abc", recover, 0).outcome, run_outcome::failed);
  EXPECT_EQ(judge_fault(0, "abc", "abc", recover, 1).outcome, run_outcome::passed);
}

TEST(NotJudged, NamesTheBaselineAndNeverPasses) {
  const auto run = not_judged(verdict::silent_corruption, "1KiB");
  EXPECT_EQ(run.result, verdict::not_judged);
  EXPECT_EQ(run.outcome, run_outcome::not_judged);
  EXPECT_FALSE(run.passed());
  EXPECT_NE(run.why.find("baseline of 1KiB was SILENT_CORRUPTION"), std::string::npos) << run.why;
}

TEST(FirstDifference, EqualPrefixAndLonger) {
  EXPECT_FALSE(first_difference("abc", "abc"));
  EXPECT_EQ(*first_difference("abcd", "abc"), 3u);
  EXPECT_EQ(*first_difference("", "abc"), 0u);
}

} // namespace
} // namespace s3fault::gate
