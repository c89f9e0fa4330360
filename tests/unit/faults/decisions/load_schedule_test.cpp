// Load-shaped schedules (faults/load_schedule.hpp): in-flight admission with its slots, min_body,
// and token-bucket rates driven by an explicit clock. Every verdict is checked both ways: the
// exchanges the rule must let through and the ones it must fire on.
#include "faults/rule_set.hpp"
#include "faults/rule_store.hpp"
#include "test_actions.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <barrier>
#include <cctype>
#include <map>
#include <thread>

using namespace s3fault::faults;
using namespace std::chrono_literals;
using s3fault::faults::testing::make_rule;

namespace {

const clock::time_point t0 = clock::time_point{} + 1000h; // a fixed "now" for the fake clock

s3_request put(std::string_view target) {
  return classify_request({"PUT", target, "127.0.0.1", {}});
}

/// Request headers as a lookup (names given lower case, looked up case-insensitively).
header_lookup headers_of(std::map<std::string, std::string> fields) {
  return [fields = std::move(fields)](std::string_view name) -> std::optional<std::string_view> {
    std::string lower(name);
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto found = fields.find(lower);
    if (found == fields.end()) {
      return std::nullopt;
    }
    return std::string_view(found->second);
  };
}

header_lookup body_of(std::uint64_t length) {
  return headers_of({{"content-length", std::to_string(length)}});
}

schedule_spec in_flight_over(std::uint64_t n) {
  schedule_spec s;
  s.in_flight_over = n;
  return s;
}

schedule_spec rate(double per_second, std::optional<double> burst = std::nullopt) {
  schedule_spec s;
  s.rate = per_second;
  s.burst = burst;
  return s;
}

bool fired(const exchange_decision& decision) {
  return !decision.injected.empty();
}

/// Decides PUT `target` at `now` and says whether the rule fired ('1') or let it through ('0').
char verdict(const rule_set& rules, std::string_view target, clock::time_point now) {
  return fired(rules.decide(put(target), "PUT", {}, now)) ? '1' : '0';
}

/// `n` verdicts for the same target at the same instant.
std::string verdicts(const rule_set& rules, int n, clock::time_point now,
                     std::string_view target = "/b/k") {
  std::string out;
  for (int i = 0; i < n; ++i) {
    out += verdict(rules, target, now);
  }
  return out;
}

} // namespace

// ---- in-flight admission -------------------------------------------------------------------

TEST(InFlight, AdmitsExactlyNAndFiresOnTheRestWhileTheyAreHeld) {
  const auto r = make_rule("admission", {}, in_flight_over(4));
  const rule_set rules({r}, 1, t0);
  std::vector<exchange_decision> held;
  std::string pattern;
  for (int i = 0; i < 16; ++i) {
    held.push_back(rules.decide(put("/b/upload"), "PUT", {}, t0));
    pattern += fired(held.back()) ? '1' : '0';
    // An admitted exchange holds one slot; a refused one none.
    EXPECT_EQ(held.back().slots.size(), fired(held.back()) ? 0u : 1u) << i;
  }
  EXPECT_EQ(pattern, "0000111111111111");
  EXPECT_EQ(r.state->in_flight.load(), 4u);
  EXPECT_EQ(r.state->peak_in_flight.load(), 4u);
  EXPECT_EQ(r.state->refusals.load(), 12u);
  EXPECT_EQ(r.state->injected.load(), 12u);
  EXPECT_EQ(r.state->skipped.load(), 4u);
  EXPECT_EQ(r.state->matched.load(), 16u);
  held.clear(); // every exchange ends
  EXPECT_EQ(r.state->in_flight.load(), 0u);
  EXPECT_EQ(r.state->peak_in_flight.load(), 4u);
}

TEST(InFlight, AReleasedSlotLetsTheNextOneIn) {
  const auto r = make_rule("admission", {}, in_flight_over(2));
  const rule_set rules({r}, 1, t0);
  auto first = rules.decide(put("/b/k"), "PUT", {}, t0);
  auto second = rules.decide(put("/b/k"), "PUT", {}, t0);
  ASSERT_FALSE(fired(first));
  ASSERT_FALSE(fired(second));
  EXPECT_TRUE(fired(rules.decide(put("/b/k"), "PUT", {}, t0))); // full: fires
  first = exchange_decision{};                                  // the first exchange ends
  EXPECT_EQ(r.state->in_flight.load(), 1u);
  auto third = rules.decide(put("/b/k"), "PUT", {}, t0);
  EXPECT_FALSE(fired(third)); // its slot was free
  EXPECT_EQ(r.state->in_flight.load(), 2u);
  EXPECT_TRUE(fired(rules.decide(put("/b/k"), "PUT", {}, t0))); // full again
  EXPECT_EQ(r.state->refusals.load(), 2u);
}

TEST(InFlight, ASlotIsReleasedExactlyOnce) {
  const auto r = make_rule("admission", {}, in_flight_over(10));
  const rule_set rules({r}, 1, t0);
  {
    auto decision = rules.decide(put("/b/k"), "PUT", {}, t0);
    ASSERT_EQ(decision.slots.size(), 1u);
    // Moving the decision (as the proxy's optional<exchange_decision> does) moves the slot.
    exchange_decision moved = std::move(decision);
    decision = exchange_decision{}; // the moved-from one ends: nothing to release
    EXPECT_EQ(r.state->in_flight.load(), 1u);
    // An explicit release, then the destructor: one decrement in all.
    moved.slots.front().release();
    EXPECT_EQ(r.state->in_flight.load(), 0u);
    moved.slots.front().release();
    EXPECT_FALSE(moved.slots.front().held());
  }
  EXPECT_EQ(r.state->in_flight.load(), 0u);
  // Move-assigning over a held slot releases the one it replaces, once.
  auto a = rules.decide(put("/b/k"), "PUT", {}, t0);
  auto b = rules.decide(put("/b/k"), "PUT", {}, t0);
  EXPECT_EQ(r.state->in_flight.load(), 2u);
  a.slots.front() = std::move(b.slots.front());
  EXPECT_EQ(r.state->in_flight.load(), 1u);
  b = exchange_decision{};
  EXPECT_EQ(r.state->in_flight.load(), 1u);
  a = exchange_decision{};
  EXPECT_EQ(r.state->in_flight.load(), 0u);
}

TEST(InFlight, SlotsOutliveTheirSnapshotAndAnUnchangedRuleKeepsCounting) {
  rule_store store(1, t0, [] { return t0; });
  auto r = make_rule("admission", {}, in_flight_over(1));
  r.definition = {{"name", "admission"}};
  store.replace_all({r});
  auto held = store.current()->decide(put("/b/k"), "PUT", {}, t0);
  ASSERT_FALSE(fired(held));
  // A change elsewhere swaps the snapshot; the rule is unchanged, so it is still full.
  auto other = make_rule("other", {}, {});
  other.definition = {{"name", "other"}};
  store.replace_all({r, other});
  EXPECT_TRUE(fired(store.current()->decide(put("/b/k"), "PUT", {}, t0)));
  // Removing the rule while the exchange runs: the slot still releases into its counters.
  const auto state = store.current()->rules().front().state;
  store.replace_all({});
  held = exchange_decision{};
  EXPECT_EQ(state->in_flight.load(), 0u);
}

TEST(InFlight, MinBodyPicksTheRequestsThatTakePart) {
  auto s = in_flight_over(1);
  s.min_body = 64ull << 20;
  const auto r = make_rule("big-uploads", {}, s);
  const rule_set rules({r}, 1, t0);
  auto big = rules.decide(put("/b/big"), "PUT", body_of(64ull << 20), t0);
  EXPECT_FALSE(fired(big));
  EXPECT_EQ(big.slots.size(), 1u);
  // Full now: another 64 MiB upload fires, a smaller one neither counts nor fires.
  EXPECT_TRUE(fired(rules.decide(put("/b/big2"), "PUT", body_of(100ull << 20), t0)));
  const auto small = rules.decide(put("/b/small"), "PUT", body_of((64ull << 20) - 1), t0);
  EXPECT_FALSE(fired(small));
  EXPECT_TRUE(small.slots.empty());
  EXPECT_FALSE(fired(rules.decide(put("/b/none"), "PUT", {}, t0))); // no declared body
  EXPECT_EQ(r.state->matched.load(), 2u);
  EXPECT_EQ(r.state->in_flight.load(), 1u);
  // aws-chunked: the decoded length is the body's size, not the framed Content-Length.
  const auto chunked_small = headers_of(
      {{"content-length", std::to_string(70ull << 20)}, {"x-amz-decoded-content-length", "1024"}});
  EXPECT_FALSE(fired(rules.decide(put("/b/c"), "PUT", chunked_small, t0)));
  const auto chunked_big = headers_of(
      {{"content-length", "1000"}, {"x-amz-decoded-content-length", std::to_string(64ull << 20)}});
  EXPECT_TRUE(fired(rules.decide(put("/b/c"), "PUT", chunked_big, t0)));
  EXPECT_EQ(r.state->matched.load(), 3u);
  EXPECT_EQ(declared_body_size(headers_of({{"content-length", "12x"}})), std::nullopt);
  EXPECT_EQ(declared_body_size(headers_of({{"content-length", " 12 "}})), 12u);
}

// ---- the order with the other schedule fields ------------------------------------------------

TEST(InFlight, TheOtherFieldsNarrowTheFiresAndWhatTheyLetThroughHoldsASlot) {
  {
    // probability 0: never fires, so every exchange is let through and in flight.
    auto s = in_flight_over(2);
    s.probability = 0;
    const auto r = make_rule("never", {}, s);
    const rule_set rules({r}, 1, t0);
    std::vector<exchange_decision> held;
    for (int i = 0; i < 5; ++i) {
      held.push_back(rules.decide(put("/b/k"), "PUT", {}, t0));
      EXPECT_FALSE(fired(held.back()));
    }
    EXPECT_EQ(r.state->in_flight.load(), 5u);
    EXPECT_EQ(r.state->peak_in_flight.load(), 5u);
    EXPECT_EQ(r.state->refusals.load(), 0u);
  }
  {
    // times 2: two refusals, then over-limit exchanges go through.
    auto s = in_flight_over(1);
    s.times = 2;
    const auto r = make_rule("twice", {}, s);
    const rule_set rules({r}, 1, t0);
    std::vector<exchange_decision> held;
    std::string pattern;
    for (int i = 0; i < 5; ++i) {
      held.push_back(rules.decide(put("/b/k"), "PUT", {}, t0));
      pattern += fired(held.back()) ? '1' : '0';
    }
    EXPECT_EQ(pattern, "01100");
    EXPECT_EQ(r.state->in_flight.load(), 3u);
  }
  {
    // after 10s: exchanges let through before then are in flight all the same, so the first
    // match inside the window already finds the rule full.
    auto s = in_flight_over(2);
    s.after = 10s;
    const auto r = make_rule("later", {}, s);
    const rule_set rules({r}, 1, t0);
    std::vector<exchange_decision> held;
    for (int i = 0; i < 3; ++i) {
      held.push_back(rules.decide(put("/b/k"), "PUT", {}, t0 + 1s));
      EXPECT_FALSE(fired(held.back()));
    }
    EXPECT_TRUE(fired(rules.decide(put("/b/k"), "PUT", {}, t0 + 10s)));
    held.resize(1);
    EXPECT_FALSE(fired(rules.decide(put("/b/k"), "PUT", {}, t0 + 10s)));
  }
  {
    // skip 1, every 2: only eligible matches may fire (the 3rd, 5th, ...), the others go in.
    auto s = in_flight_over(1);
    s.skip = 1;
    s.every = 2;
    const auto r = make_rule("every-other", {}, s);
    const rule_set rules({r}, 1, t0);
    std::vector<exchange_decision> held;
    std::string pattern;
    for (int i = 0; i < 6; ++i) {
      held.push_back(rules.decide(put("/b/k"), "PUT", {}, t0));
      pattern += fired(held.back()) ? '1' : '0';
    }
    EXPECT_EQ(pattern, "001010");
  }
}

TEST(InFlight, ARefusedExchangeTakesNoToken) {
  // in_flight_over 1 and rate 1/s with a bucket of 2, all at one instant.
  auto s = in_flight_over(1);
  s.rate = 1;
  s.burst = 2;
  const auto r = make_rule("both", {}, s);
  const rule_set rules({r}, 1, t0);
  auto first = rules.decide(put("/b/k"), "PUT", {}, t0); // slot and token 1 of 2
  ASSERT_FALSE(fired(first));
  EXPECT_TRUE(fired(rules.decide(put("/b/k"), "PUT", {}, t0))); // full: no token taken
  first = exchange_decision{};
  auto second = rules.decide(put("/b/k"), "PUT", {}, t0); // token 2 of 2
  ASSERT_FALSE(fired(second));
  second = exchange_decision{};
  EXPECT_TRUE(fired(rules.decide(put("/b/k"), "PUT", {}, t0))); // a free slot, no token
  EXPECT_EQ(r.state->refusals.load(), 2u);
}

// ---- token-bucket rate -----------------------------------------------------------------------

TEST(Rate, BurstThenRefusalsThenOneTokenPerInterval) {
  const auto r = make_rule("rate", {}, rate(10, 3));
  const rule_set rules({r}, 1, t0);
  EXPECT_EQ(verdicts(rules, 5, t0), "00011");
  // One token comes back 1/R = 100 ms after the first was taken, not a nanosecond earlier.
  EXPECT_EQ(verdicts(rules, 1, t0 + 100ms - 1ns), "1");
  EXPECT_EQ(verdicts(rules, 2, t0 + 100ms), "01");
  EXPECT_EQ(verdicts(rules, 2, t0 + 200ms), "01");
  // Idle long enough, the bucket is full again, but never holds more than the burst.
  EXPECT_EQ(verdicts(rules, 4, t0 + 1h), "0001");
  EXPECT_EQ(r.state->refusals.load(), 6u);
  EXPECT_EQ(r.state->injected.load(), 6u);
  EXPECT_EQ(r.state->matched.load(), 14u);
  EXPECT_EQ(r.state->in_flight.load(), 0u); // a rate alone holds no slots
}

TEST(Rate, TheDefaultBurstIsTheRateAndAtLeastOne) {
  EXPECT_EQ(verdicts(rule_set({make_rule("r", {}, rate(5))}, 1, t0), 7, t0), "0000011");
  const rule_set slow({make_rule("r", {}, rate(0.5))}, 1, t0);
  EXPECT_EQ(verdicts(slow, 2, t0), "01");
  EXPECT_EQ(verdicts(slow, 1, t0 + 2s - 1ns), "1");
  EXPECT_EQ(verdicts(slow, 2, t0 + 2s), "01");
  // A fractional bucket: 2.5 tokens at 1/s gives two now and the third half a second later.
  const rule_set fractional({make_rule("r", {}, rate(1, 2.5))}, 1, t0);
  EXPECT_EQ(verdicts(fractional, 3, t0), "001");
  EXPECT_EQ(verdicts(fractional, 1, t0 + 500ms - 1ns), "1");
  EXPECT_EQ(verdicts(fractional, 2, t0 + 500ms), "01");
}

TEST(Rate, PerPrefixBucketsAreApart) {
  auto s = rate(0.001, 2);
  s.rate_per = rate_scope::prefix;
  const rule_set rules({make_rule("prefix", {}, s)}, 1, t0);
  EXPECT_EQ(verdict(rules, "/b/logs/2024/a", t0), '0');
  EXPECT_EQ(verdict(rules, "/b/logs/2024/b", t0), '0'); // same prefix b/logs/2024/
  EXPECT_EQ(verdict(rules, "/b/logs/2024/c", t0), '1');
  EXPECT_EQ(verdicts(rules, 3, t0, "/b/logs/other"), "001");  // b/logs/
  EXPECT_EQ(verdicts(rules, 3, t0, "/b/top"), "001");         // b/
  EXPECT_EQ(verdicts(rules, 3, t0, "/c/logs/2024/a"), "001"); // another bucket
  EXPECT_EQ(rate_bucket_key(rate_scope::prefix, put("/b/a/b/c.txt")), "b/a/b/");
  EXPECT_EQ(rate_bucket_key(rate_scope::prefix, put("/b/c.txt")), "b/");
  EXPECT_EQ(rate_bucket_key(rate_scope::key, put("/b/a/c.txt")), "b/a/c.txt");
  EXPECT_EQ(rate_bucket_key(rate_scope::rule, put("/b/a/c.txt")), "");
}

TEST(Rate, PerKeyAndPerRuleBuckets) {
  auto per_key = rate(0.001, 1);
  per_key.rate_per = rate_scope::key;
  const rule_set keys({make_rule("key", {}, per_key)}, 1, t0);
  EXPECT_EQ(verdicts(keys, 2, t0, "/b/dir/one"), "01");
  EXPECT_EQ(verdicts(keys, 2, t0, "/b/dir/two"), "01");
  const rule_set whole({make_rule("rule", {}, rate(0.001, 1))}, 1, t0);
  EXPECT_EQ(verdict(whole, "/b/dir/one", t0), '0');
  EXPECT_EQ(verdict(whole, "/c/elsewhere", t0), '1');
}

TEST(Rate, ManyBucketsAreSweptWithoutChangingAVerdict) {
  auto s = rate(1, 1);
  s.rate_per = rate_scope::key;
  const auto r = make_rule("sweep", {}, s);
  const rule_set rules({r}, 1, t0);
  // Thousands of keys that have refilled by t0 + 2s, and one taken then: a sweep at t0 + 2s
  // drops the full ones and keeps the busy one, which still has no token.
  for (int i = 0; i < 5000; ++i) {
    ASSERT_EQ(verdict(rules, "/b/k" + std::to_string(i), t0 + 500ms), '0');
  }
  EXPECT_EQ(verdicts(rules, 2, t0 + 2s, "/b/busy"), "01");
  for (int i = 0; i < 4000; ++i) {
    ASSERT_EQ(verdict(rules, "/b/later" + std::to_string(i), t0 + 2s), '0');
  }
  EXPECT_LT(r.state->buckets.size(), 5000u); // swept
  EXPECT_EQ(verdict(rules, "/b/busy", t0 + 2s), '1');
  EXPECT_EQ(verdicts(rules, 2, t0 + 2s, "/b/k0"), "01"); // swept or not, it was full
}

TEST(Rate, WithStatusItCountsAnsweredExchanges) {
  // A rate is allowed with match.status (counted when the store has answered); in_flight is not
  // (see the parser's tests).
  match_spec m;
  m.statuses = {200};
  const auto r = make_rule("answered", m, rate(0.001, 1), action_phase::response_head);
  const rule_set rules({r}, 1, t0);
  std::string pattern;
  for (int i = 0; i < 3; ++i) {
    auto decision = rules.decide(put("/b/k"), "PUT", {}, t0);
    rules.decide_on_status(decision, put("/b/k"), 200, t0);
    pattern += fired(decision) ? '1' : '0';
  }
  EXPECT_EQ(pattern, "011");
}

// ---- under concurrency -----------------------------------------------------------------------

TEST(LoadConcurrency, ExactlyNAdmittedAcrossThreads) {
  constexpr int threads = 8;
  constexpr int per_thread = 2000;
  const auto admission = make_rule("0", {}, in_flight_over(37));
  const auto burst = make_rule("1", {}, rate(0.001, 101));
  const rule_set rules({admission, burst}, 1, t0);
  std::vector<std::vector<exchange_decision>> held(threads);
  std::vector<std::array<int, 2>> let_through(threads, {0, 0});
  std::barrier start(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      const auto request = put("/b/k");
      start.arrive_and_wait();
      for (int i = 0; i < per_thread; ++i) {
        auto decision = rules.decide(request, "PUT", {}, t0);
        std::array<bool, 2> fired_by{false, false};
        for (const auto& injection : decision.injected) {
          fired_by[std::stoul(injection.rule)] = true;
        }
        for (int r = 0; r < 2; ++r) {
          let_through[t][r] += fired_by[r] ? 0 : 1;
        }
        held[t].push_back(std::move(decision)); // nothing ends: every slot stays held
      }
    });
  }
  for (auto& worker : workers) {
    worker.join();
  }
  int admitted = 0, passed = 0;
  for (const auto& counts : let_through) {
    admitted += counts[0];
    passed += counts[1];
  }
  EXPECT_EQ(admitted, 37);
  EXPECT_EQ(passed, 101);
  EXPECT_EQ(admission.state->in_flight.load(), 37u);
  EXPECT_EQ(admission.state->peak_in_flight.load(), 37u);
  EXPECT_EQ(admission.state->refusals.load(), std::uint64_t{threads} * per_thread - 37);
  EXPECT_EQ(burst.state->refusals.load(), std::uint64_t{threads} * per_thread - 101);
  held.clear();
  EXPECT_EQ(admission.state->in_flight.load(), 0u);
}

TEST(LoadConcurrency, SlotsReleasedOnOtherThreadsNeverLetMoreThanNIn) {
  constexpr int threads = 8;
  constexpr int per_thread = 5000;
  const auto r = make_rule("admission", {}, in_flight_over(3));
  const rule_set rules({r}, 1, t0);
  std::atomic<std::uint64_t> admitted{0};
  std::barrier start(threads);
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&] {
      const auto request = put("/b/k");
      start.arrive_and_wait();
      for (int i = 0; i < per_thread; ++i) {
        auto decision = rules.decide(request, "PUT", {}, t0);
        if (!fired(decision)) {
          admitted.fetch_add(1);
        }
        // The decision ends here, releasing its slot (if any) on this thread.
      }
    });
  }
  for (auto& worker : workers) {
    worker.join();
  }
  EXPECT_LE(r.state->peak_in_flight.load(), 3u);
  EXPECT_EQ(r.state->in_flight.load(), 0u);
  EXPECT_EQ(admitted.load() + r.state->refusals.load(), std::uint64_t{threads} * per_thread);
  EXPECT_EQ(r.state->refusals.load(), r.state->injected.load());
}
