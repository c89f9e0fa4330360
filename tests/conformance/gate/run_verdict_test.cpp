// Verdicts from a reader's exit and output, and which expectations accept them.
#include "conformance/gate/run_verdict.hpp"

#include <gtest/gtest.h>

namespace s3fault::gate {
namespace {

constexpr auto recover = expectation::must_recover;
constexpr auto not_corrupt = expectation::must_not_corrupt;
constexpr auto info = expectation::informational;

TEST(JudgeRun, RightBytesAreCorrectEverywhere) {
  const auto run = judge_run(false, 0, "abcdef", "abcdef", "", recover, 60);
  EXPECT_EQ(run.result, verdict::correct);
  EXPECT_TRUE(run.passed);
}

TEST(JudgeRun, ShortOutputWithExitZeroIsSilentCorruption) {
  const auto run = judge_run(false, 0, "abc", "abcdef", "", not_corrupt, 60);
  EXPECT_EQ(run.result, verdict::silent_corruption);
  EXPECT_FALSE(run.passed);
  EXPECT_EQ(run.expected_bytes, 6u);
  EXPECT_EQ(run.actual_bytes, 3u);
  ASSERT_TRUE(run.first_difference);
  EXPECT_EQ(*run.first_difference, 3u);
  EXPECT_EQ(run.why, "exit 0 with 3 of 6 bytes; first difference at offset 3");
}

TEST(JudgeRun, FlippedByteIsFoundWhereItIs) {
  const auto run = judge_run(false, 0, "abXdef", "abcdef", "", info, 60);
  EXPECT_EQ(run.result, verdict::silent_corruption);
  EXPECT_FALSE(run.passed) << "silent corruption fails even informational scenarios";
  EXPECT_EQ(*run.first_difference, 2u);
}

TEST(JudgeRun, NonZeroExitIsRejectedAndFailsOnlyMustRecover) {
  EXPECT_EQ(judge_run(false, 1, "", "abc", "", recover, 60).result, verdict::rejected);
  EXPECT_FALSE(judge_run(false, 1, "", "abc", "", recover, 60).passed);
  EXPECT_TRUE(judge_run(false, 1, "", "abc", "", not_corrupt, 60).passed);
  EXPECT_TRUE(judge_run(false, 255, "abc", "abc", "", info, 60).passed);
}

TEST(JudgeRun, TimeoutIsHungAndAlwaysFails) {
  const auto run = judge_run(true, 137, "abc", "abc", "", info, 30);
  EXPECT_EQ(run.result, verdict::hung);
  EXPECT_FALSE(run.passed);
  EXPECT_NE(run.why.find("30 s"), std::string::npos) << run.why;
}

TEST(JudgeRun, EitherVersionOfAReplacedObjectIsCorrectButAMixIsNot) {
  EXPECT_EQ(judge_run(false, 0, "NEWNEW", "oldold", "NEWNEW", not_corrupt, 60).result,
            verdict::correct);
  EXPECT_EQ(judge_run(false, 0, "oldNEW", "oldold", "NEWNEW", not_corrupt, 60).result,
            verdict::silent_corruption);
}

TEST(FirstDifference, EqualPrefixAndLonger) {
  EXPECT_FALSE(first_difference("abc", "abc"));
  EXPECT_EQ(*first_difference("abcd", "abc"), 3u);
  EXPECT_EQ(*first_difference("", "abc"), 0u);
}

} // namespace
} // namespace s3fault::gate
