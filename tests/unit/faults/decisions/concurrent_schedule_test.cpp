// Schedules decided from several worker threads at once, as the proxy does: the counts a
// schedule looks at must be exact, not merely close (first, skip, every, times, per key, and the
// seeded dice). A lost update shows only when threads meet right at a count's boundary, so each
// test runs many rules, each with its own boundary, in one rule set.
#include "faults/rule_set.hpp"
#include "test_actions.hpp"

#include <gtest/gtest.h>

#include <array>
#include <barrier>
#include <thread>

using namespace s3fault::faults;
using s3fault::faults::testing::make_rule;

namespace {

constexpr int thread_count = 8;
constexpr int decisions_per_thread = 10'000;
constexpr std::uint64_t total = std::uint64_t{thread_count} * decisions_per_thread;
constexpr int key_count = 4;
constexpr std::uint64_t per_key_total = total / key_count;

/// Injections the threads saw, per rule and per key ("b/k0".."b/k3").
using tally = std::vector<std::array<std::uint64_t, key_count>>;

std::uint64_t sum(const std::array<std::uint64_t, key_count>& per_key) {
  std::uint64_t out = 0;
  for (const auto n : per_key) {
    out += n;
  }
  return out;
}

/// Decides `decisions_per_thread` GETs on each of `thread_count` threads, released together so
/// that they race; thread t's request i is for key (t + i) % key_count. Rules are named by index.
tally decide_from_threads(const rule_set& rules) {
  std::vector<tally> seen(thread_count, tally(rules.rules().size()));
  std::barrier start(thread_count);
  std::vector<std::thread> threads;
  const auto now = clock::now();
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([&, t] {
      std::array<s3_request, key_count> requests;
      for (int k = 0; k < key_count; ++k) {
        const std::string target = "/b/k" + std::to_string(k);
        requests[k] = classify_request({"GET", target, "127.0.0.1", {}});
      }
      start.arrive_and_wait();
      for (int i = 0; i < decisions_per_thread; ++i) {
        const int k = (t + i) % key_count;
        for (const auto& injected : rules.decide(requests[k], "GET", {}, now).injected) {
          ++seen[t][std::stoul(injected.rule)][k];
        }
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  tally out(rules.rules().size());
  for (const auto& one : seen) {
    for (std::size_t r = 0; r < out.size(); ++r) {
      for (int k = 0; k < key_count; ++k) {
        out[r][k] += one[r][k];
      }
    }
  }
  return out;
}

/// One rule per schedule, all decided from all threads. Checks that each rule's counters add up
/// and agree with what the threads saw; returns what they saw.
tally run(const std::vector<schedule_spec>& schedules, std::uint64_t seed = 1) {
  std::vector<rule> list;
  for (std::size_t i = 0; i < schedules.size(); ++i) {
    list.push_back(make_rule(std::to_string(i), {}, schedules[i]));
  }
  const rule_set rules(list, seed, clock::now());
  const tally seen = decide_from_threads(rules);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const rule_state& state = *list[i].state;
    EXPECT_EQ(state.matched.load(), total) << "rule " << i;
    EXPECT_EQ(state.injected.load(), sum(seen[i])) << "rule " << i;
    EXPECT_EQ(state.injected.load() + state.skipped.load(), state.matched.load()) << "rule " << i;
  }
  return seen;
}

/// `count` schedules made by `make(i)` for i = 1..count.
template <typename Make> std::vector<schedule_spec> schedules(int count, Make make) {
  std::vector<schedule_spec> out;
  for (int i = 1; i <= count; ++i) {
    schedule_spec s;
    make(s, static_cast<std::uint64_t>(i));
    out.push_back(s);
  }
  return out;
}

constexpr int rule_count = 64;
// Boundaries spread over the run: 1237, 2474, ... 79168.
constexpr std::uint64_t boundary_step = total / (rule_count + 1);

} // namespace

TEST(ConcurrentSchedule, FirstInjectsExactlyN) {
  const auto seen = run(schedules(
      rule_count, [](schedule_spec& s, std::uint64_t i) { s.first = i * boundary_step; }));
  for (int i = 0; i < rule_count; ++i) {
    EXPECT_EQ(sum(seen[i]), (i + 1) * boundary_step) << "first=" << (i + 1) * boundary_step;
  }
}

TEST(ConcurrentSchedule, SkipLeavesExactlyNAlone) {
  const auto seen = run(
      schedules(rule_count, [](schedule_spec& s, std::uint64_t i) { s.skip = i * boundary_step; }));
  for (int i = 0; i < rule_count; ++i) {
    EXPECT_EQ(sum(seen[i]), total - (i + 1) * boundary_step) << "skip=" << (i + 1) * boundary_step;
  }
}

TEST(ConcurrentSchedule, EveryInjectsExactlyTotalOverK) {
  const auto seen = run(schedules(16, [](schedule_spec& s, std::uint64_t i) { s.every = i + 1; }));
  for (std::uint64_t every = 2; every <= 17; ++every) {
    EXPECT_EQ(sum(seen[every - 2]), total / every) << "every=" << every;
  }
}

TEST(ConcurrentSchedule, TimesInjectsExactlyN) {
  const auto seen = run(schedules(
      rule_count, [](schedule_spec& s, std::uint64_t i) { s.times = i * boundary_step; }));
  for (int i = 0; i < rule_count; ++i) {
    EXPECT_EQ(sum(seen[i]), (i + 1) * boundary_step) << "times=" << (i + 1) * boundary_step;
  }
}

TEST(ConcurrentSchedule, TimesWithDiceInjectsExactlyN) {
  // The dice widen the gap between reading the count and raising it. 99% of 80000 matches is
  // far more than any of these counts, whatever the seed draws.
  const auto seen = run(schedules(16, [](schedule_spec& s, std::uint64_t i) {
    s.times = i * 4'000;
    s.probability = 0.99;
  }));
  for (std::uint64_t i = 1; i <= 16; ++i) {
    EXPECT_EQ(sum(seen[i - 1]), i * 4'000) << "times=" << i * 4'000;
  }
}

TEST(ConcurrentSchedule, SkipFirstEveryTimesTogether) {
  schedule_spec s;
  s.skip = 1'000;
  s.first = 60'000; // eligible matches 1..60000
  s.every = 3;      // of which 20000
  s.times = 15'000; // capped
  EXPECT_EQ(sum(run({s})[0]), 15'000u);
}

TEST(ConcurrentSchedule, PerKeyCountsAreExactForEachKey) {
  schedule_spec first;
  first.per_key = true;
  first.first = 5'000;
  schedule_spec every_times;
  every_times.per_key = true;
  every_times.every = 4;
  every_times.times = 3'000;
  schedule_spec skip;
  skip.per_key = true;
  skip.skip = 7'000;
  schedule_spec times;
  times.per_key = true;
  times.times = 12'345;
  const auto seen = run({first, every_times, skip, times});
  for (int k = 0; k < key_count; ++k) {
    EXPECT_EQ(seen[0][k], 5'000u) << "first, key " << k;
    EXPECT_EQ(seen[1][k], std::min<std::uint64_t>(per_key_total / 4, 3'000)) << "every, key " << k;
    EXPECT_EQ(seen[2][k], per_key_total - 7'000) << "skip, key " << k;
    EXPECT_EQ(seen[3][k], 12'345u) << "times, key " << k;
  }
}

TEST(ConcurrentSchedule, SeededProbabilityInjectsAsOftenAsOnOneThread) {
  // The dice are drawn in the same critical section as the counts, so the threads together
  // draw the engine's numbers in its one order: the count is that of one thread, whatever the
  // interleaving. With `times`, the draws stop once the count is reached. One rule per rule set:
  // rules of one set share its engine, and which rule gets which draw does depend on the
  // interleaving.
  const s3_request request = classify_request({"GET", "/b/k0", "127.0.0.1", {}});
  for (const std::uint64_t times : {0, 5'000, 23'000, 23'900, 24'000, 24'100}) {
    schedule_spec s;
    s.probability = 0.3;
    if (times > 0) {
      s.times = times;
    }
    const rule_set alone({make_rule("0", {}, s)}, 42, clock::now());
    std::uint64_t expected = 0;
    for (std::uint64_t n = 0; n < total; ++n) {
      expected += alone.decide(request, "GET", {}, clock::now()).injected.size();
    }
    EXPECT_EQ(sum(run({s}, 42)[0]), expected) << "times=" << times;
  }
}
