#include "faults/rule_set.hpp"
#include "test_actions.hpp"

#include <gtest/gtest.h>

using namespace s3fault::faults;
using s3fault::faults::testing::make_rule;

namespace {

s3_request get(std::string_view target) {
  return classify_request({"GET", target, "127.0.0.1", {}});
}

// Which of `n` identical requests the rule injects into, as a string of 0/1.
std::string pattern_of(const rule_set& rules, int n, std::string_view target = "/b/k",
                       clock::time_point now = clock::now()) {
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += rules.decide(get(target), "GET", {}, now).injected.empty() ? '0' : '1';
  }
  return out;
}

} // namespace

TEST(Schedule, CountsFirstSkipEveryTimes) {
  {
    schedule_spec s;
    s.first = 2;
    EXPECT_EQ(pattern_of(rule_set({make_rule("r", {}, s)}, 1, clock::now()), 5), "11000");
  }
  {
    schedule_spec s;
    s.skip = 2;
    EXPECT_EQ(pattern_of(rule_set({make_rule("r", {}, s)}, 1, clock::now()), 5), "00111");
  }
  {
    schedule_spec s;
    s.every = 3;
    EXPECT_EQ(pattern_of(rule_set({make_rule("r", {}, s)}, 1, clock::now()), 7), "0010010");
  }
  {
    schedule_spec s;
    s.skip = 1;
    s.first = 2;
    EXPECT_EQ(pattern_of(rule_set({make_rule("r", {}, s)}, 1, clock::now()), 5), "01100");
  }
  {
    schedule_spec s;
    s.times = 3;
    s.every = 2;
    EXPECT_EQ(pattern_of(rule_set({make_rule("r", {}, s)}, 1, clock::now()), 10), "0101010000");
  }
}

TEST(Schedule, PerKeyCountsEachObjectApart) {
  schedule_spec s;
  s.first = 2;
  s.per_key = true;
  auto r = make_rule("first-two-per-key", {}, s);
  rule_set rules({r}, 1, clock::now());
  EXPECT_EQ(pattern_of(rules, 3, "/b/one"), "110");
  EXPECT_EQ(pattern_of(rules, 3, "/b/two"), "110");
  EXPECT_EQ(pattern_of(rules, 1, "/other/one"), "1");
  EXPECT_EQ(r.state->matched.load(), 7u);
  EXPECT_EQ(r.state->injected.load(), 5u);
  EXPECT_EQ(r.state->skipped.load(), 2u);
}

TEST(Schedule, TimeWindow) {
  const auto start = clock::now();
  schedule_spec s;
  s.after = std::chrono::seconds(10);
  s.until = std::chrono::seconds(20);
  rule_set rules({make_rule("window", {}, s)}, 1, start);
  EXPECT_EQ(pattern_of(rules, 1, "/b/k", start + std::chrono::seconds(5)), "0");
  EXPECT_EQ(pattern_of(rules, 1, "/b/k", start + std::chrono::seconds(10)), "1");
  EXPECT_EQ(pattern_of(rules, 1, "/b/k", start + std::chrono::seconds(19)), "1");
  EXPECT_EQ(pattern_of(rules, 1, "/b/k", start + std::chrono::seconds(20)), "0");
}

TEST(Schedule, TimeWindowCountsFromTheRuleInstallTime) {
  // A rule installed 100s after the rule set's start time: its window is 110s..120s, not
  // 10s..20s.
  const auto start = clock::now();
  schedule_spec s;
  s.after = std::chrono::seconds(10);
  s.until = std::chrono::seconds(20);
  auto r = make_rule("window", {}, s);
  r.installed = start + std::chrono::seconds(100);
  rule_set rules({r}, 1, start);
  EXPECT_EQ(pattern_of(rules, 1, "/b/k", start + std::chrono::seconds(15)), "0");
  EXPECT_EQ(pattern_of(rules, 1, "/b/k", start + std::chrono::seconds(105)), "0");
  EXPECT_EQ(pattern_of(rules, 1, "/b/k", start + std::chrono::seconds(110)), "1");
  EXPECT_EQ(pattern_of(rules, 1, "/b/k", start + std::chrono::seconds(119)), "1");
  EXPECT_EQ(pattern_of(rules, 1, "/b/k", start + std::chrono::seconds(120)), "0");
}

TEST(Schedule, ProbabilityIsSeededAndDeterministic) {
  schedule_spec s;
  s.probability = 0.3;
  const auto a = pattern_of(rule_set({make_rule("p", {}, s)}, 42, clock::now()), 400);
  const auto b = pattern_of(rule_set({make_rule("p", {}, s)}, 42, clock::now()), 400);
  const auto c = pattern_of(rule_set({make_rule("p", {}, s)}, 43, clock::now()), 400);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  const auto hits = std::count(a.begin(), a.end(), '1');
  EXPECT_GT(hits, 80); // 120 expected; the bounds are > 4 standard deviations wide
  EXPECT_LT(hits, 160);
}

TEST(Schedule, ZeroAndOneProbability) {
  schedule_spec never;
  never.probability = 0.0;
  EXPECT_EQ(pattern_of(rule_set({make_rule("p", {}, never)}, 1, clock::now()), 20),
            std::string(20, '0'));
  schedule_spec always;
  EXPECT_EQ(pattern_of(rule_set({make_rule("p", {}, always)}, 1, clock::now()), 20),
            std::string(20, '1'));
}
