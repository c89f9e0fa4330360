// Verdicts from a writer's exit and what the store holds afterwards: every verdict produced, the
// ones that must fail failing under every expectation, and the fault-fired rule as for readers.
#include "conformance/gate/write_verdict.hpp"

#include <gtest/gtest.h>

// A named namespace: the unity build puts this beside run_verdict_test.cpp's anonymous one.
namespace s3fault::gate::write_verdict_tests {

constexpr auto recover = expectation::must_recover;
constexpr auto not_corrupt = expectation::must_not_corrupt;
constexpr auto info = expectation::informational;
constexpr std::string_view input = "abcdef";
constexpr std::string_view old_object = "old object";

write_evidence evidence(int exit_code, std::optional<std::string_view> stored,
                        expectation expect = recover,
                        std::optional<std::string_view> previous = std::nullopt) {
  write_evidence e;
  e.exit_code = exit_code;
  e.input = input;
  e.stored = stored;
  e.previous = previous;
  e.expect = expect;
  e.timeout_seconds = 30;
  return e;
}

TEST(JudgeWrite, ExitZeroAndTheInputStoredIsStoredEverywhere) {
  for (const auto expect : {recover, not_corrupt, info}) {
    const auto run = judge_write(evidence(0, input, expect));
    EXPECT_EQ(run.result, verdict::stored);
    EXPECT_TRUE(run.passed());
    EXPECT_EQ(run.why, "exit 0, the store holds every byte of the input");
  }
}

TEST(JudgeWrite, ExitZeroWithNothingStoredIsSilentLossEverywhere) {
  for (const auto expect : {recover, not_corrupt, info}) {
    const auto run = judge_write(evidence(0, std::nullopt, expect));
    EXPECT_EQ(run.result, verdict::silent_loss);
    EXPECT_EQ(run.outcome, run_outcome::failed);
    EXPECT_EQ(run.why, "exit 0, but the store holds no object under the key");
  }
}

TEST(JudgeWrite, ExitZeroWithOtherBytesIsSilentLossAtTheFirstDifference) {
  const auto run = judge_write(evidence(0, std::string_view("abXdef"), info));
  EXPECT_EQ(run.result, verdict::silent_loss);
  EXPECT_FALSE(run.passed());
  ASSERT_TRUE(run.first_difference);
  EXPECT_EQ(*run.first_difference, 2u);
  EXPECT_EQ(run.why, "exit 0, but the key holds 6 bytes, not the 6 of the input; first "
                     "difference at offset 2");
  const auto short_run = judge_write(evidence(0, std::string_view("abc")));
  EXPECT_EQ(short_run.result, verdict::silent_loss);
  EXPECT_EQ(short_run.actual_bytes, 3u);
  EXPECT_EQ(short_run.expected_bytes, 6u);
}

TEST(JudgeWrite, ExitZeroWithThePreviousObjectStillThereIsSilentLoss) {
  const auto run = judge_write(evidence(0, old_object, not_corrupt, old_object));
  EXPECT_EQ(run.result, verdict::silent_loss);
  EXPECT_EQ(run.why, "exit 0, but the key still holds the object it held before");
}

TEST(JudgeWrite, NonZeroExitLeavingNothingOrTheOldObjectIsRejected) {
  const auto nothing = judge_write(evidence(1, std::nullopt, not_corrupt));
  EXPECT_EQ(nothing.result, verdict::rejected);
  EXPECT_TRUE(nothing.passed());
  EXPECT_EQ(nothing.why, "exit 1, the key holds no object");
  const auto old = judge_write(evidence(2, old_object, not_corrupt, old_object));
  EXPECT_EQ(old.result, verdict::rejected);
  EXPECT_EQ(old.why, "exit 2, the key holds the object it held before");
  // Rejected fails a scenario that must recover (the writer could have stored it).
  EXPECT_EQ(judge_write(evidence(1, std::nullopt, recover)).outcome, run_outcome::failed);
}

TEST(JudgeWrite, NonZeroExitThoughTheUploadLandedIsRejected) {
  const auto run = judge_write(evidence(1, input, not_corrupt));
  EXPECT_EQ(run.result, verdict::rejected);
  EXPECT_EQ(run.why, "exit 1, though the store holds the input (the upload had landed)");
}

TEST(JudgeWrite, NonZeroExitWithOtherBytesIsTornEverywhere) {
  for (const auto expect : {recover, not_corrupt, info}) {
    const auto run = judge_write(evidence(1, std::string_view("abc"), expect, old_object));
    EXPECT_EQ(run.result, verdict::torn);
    EXPECT_EQ(run.outcome, run_outcome::failed);
    EXPECT_EQ(run.why, "exit 1, and the key holds 3 bytes that are neither the input (6 bytes; "
                       "first difference at offset 3) nor the object it held before");
  }
}

TEST(JudgeWrite, TimeoutIsHungWhateverTheStoreHolds) {
  auto e = evidence(-1, input, info);
  e.timed_out = true;
  const auto run = judge_write(e);
  EXPECT_EQ(run.result, verdict::hung);
  EXPECT_FALSE(run.passed());
  EXPECT_NE(run.why.find("30 s"), std::string::npos) << run.why;
}

TEST(JudgeWrite, APassWithoutAnInjectionIsNotExercisedAndAFailureStillFails) {
  auto pass = evidence(0, input, not_corrupt);
  pass.exercised = {.needed = true, .happened = false, .why_not = "no fault came"};
  const auto unexercised = judge_write(pass);
  EXPECT_EQ(unexercised.result, verdict::not_exercised);
  EXPECT_EQ(unexercised.observed, verdict::stored);
  EXPECT_EQ(unexercised.outcome, run_outcome::not_exercised);
  EXPECT_EQ(unexercised.why, "no fault came, so STORED says nothing");
  pass.exercised.happened = true;
  EXPECT_EQ(judge_write(pass).outcome, run_outcome::passed);

  auto loss = evidence(0, std::nullopt, not_corrupt);
  loss.exercised = {.needed = true, .happened = false, .why_not = "no fault came"};
  EXPECT_EQ(judge_write(loss).outcome, run_outcome::failed);
}

TEST(NotJudged, NamesTheWritersBaseline) {
  const auto run = not_judged(verdict::silent_loss, "mp-9MiB", run_role::writer);
  EXPECT_EQ(run.outcome, run_outcome::not_judged);
  EXPECT_EQ(run.why, "not run: the baseline of mp-9MiB was SILENT_LOSS, so the writer cannot "
                     "write this object even without a fault");
}

TEST(VerdictSucceeded, OnlyCorrectAndStored) {
  EXPECT_TRUE(verdict_succeeded(verdict::correct));
  EXPECT_TRUE(verdict_succeeded(verdict::stored));
  for (const auto v :
       {verdict::rejected, verdict::silent_corruption, verdict::hung, verdict::not_exercised,
        verdict::not_judged, verdict::silent_loss, verdict::torn}) {
    EXPECT_FALSE(verdict_succeeded(v)) << to_string(v);
  }
}

} // namespace s3fault::gate::write_verdict_tests
