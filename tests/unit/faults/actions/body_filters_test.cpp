// Body actions fed the same body in 1-byte, 7-byte and 64 KiB chunks: the client must see the
// same bytes, the same ending and the same pauses whatever the split.
#include "action_test_support.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace s3fault::faults;
using namespace s3fault::faults::testing;
using namespace std::chrono_literals;
using ending = body_step::ending;

namespace {

constexpr std::size_t body_size = 100'003;

/// Whether runs over different splits must pause at the same offsets (a stall), or only for
/// about the same time in all (a throttle paces each step it is offered).
enum class pauses_agree { exactly, in_total };

/// Runs `type` with `params` over the body once per chunk size, checks that every run agrees
/// with the first, and returns that one.
filter_run run_every_split(std::string_view type, const std::string& params,
                           std::optional<std::uint64_t> declared, std::size_t size = body_size,
                           pauses_agree pauses = pauses_agree::exactly) {
  const auto action = make_action(type, params);
  std::optional<filter_run> first;
  for (const std::size_t chunk : chunk_sizes()) {
    random_engine random(99);
    auto filter = action->make_body_filter(random);
    EXPECT_NE(filter, nullptr);
    if (filter == nullptr) {
      return {};
    }
    filter_run run = run_filter(*filter, patterned_body(size), chunk, declared);
    if (!first) {
      first = run;
      continue;
    }
    EXPECT_EQ(run.announced, first->announced) << type << " chunk " << chunk;
    EXPECT_EQ(run.range_follows, first->range_follows) << type << " chunk " << chunk;
    EXPECT_TRUE(run.output == first->output) << type << " chunk " << chunk;
    EXPECT_EQ(run.end, first->end) << type << " chunk " << chunk;
    EXPECT_EQ(run.body_complete, first->body_complete) << type << " chunk " << chunk;
    if (pauses == pauses_agree::exactly) {
      EXPECT_EQ(run.pauses, first->pauses) << type << " chunk " << chunk;
    } else {
      EXPECT_NEAR(std::chrono::duration<double>(run.total_pause).count(),
                  std::chrono::duration<double>(first->total_pause).count(), 0.001)
          << type << " chunk " << chunk;
    }
  }
  return *first;
}

std::set<std::uint64_t> differing_offsets(const std::string& a, const std::string& b) {
  std::set<std::uint64_t> out;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    if (a[i] != b[i]) {
      out.insert(i);
    }
  }
  return out;
}

} // namespace

TEST(Truncate, CloseAtBytesKeepsLengthAndCloses) {
  const std::string body = patterned_body(body_size);
  for (const auto declared :
       {std::optional<std::uint64_t>(body_size), std::optional<std::uint64_t>()}) {
    const auto run = run_every_split("truncate", R"({"at": 40000})", declared);
    EXPECT_FALSE(run.announced);
    EXPECT_EQ(run.output.size(), 40000u);
    EXPECT_TRUE(run.output == body.substr(0, 40000));
    EXPECT_EQ(run.end, ending::close);
    EXPECT_FALSE(run.body_complete);
  }
}

TEST(Truncate, CloseAtHalfOfTheDeclaredLength) {
  const auto run = run_every_split("truncate", R"({"at": "50%"})", body_size);
  EXPECT_FALSE(run.announced);
  EXPECT_EQ(run.output.size(), body_size / 2);
  EXPECT_TRUE(run.output == patterned_body(body_size).substr(0, body_size / 2));
  EXPECT_EQ(run.end, ending::close);
}

TEST(Truncate, ConsistentAtBytesAnnouncesTheCutAndEndsNormally) {
  const auto run =
      run_every_split("truncate", R"({"at": "32KiB", "mode": "consistent"})", body_size);
  EXPECT_EQ(run.announced, 32768u);
  EXPECT_TRUE(run.range_follows);
  EXPECT_EQ(run.output.size(), 32768u);
  EXPECT_TRUE(run.output == patterned_body(body_size).substr(0, 32768));
  EXPECT_EQ(run.end, ending::none);
  EXPECT_TRUE(run.body_complete);
}

TEST(Truncate, ConsistentAtHalf) {
  const auto run = run_every_split("truncate", R"({"at": "50%", "mode": "consistent"})", body_size);
  EXPECT_EQ(run.announced, body_size / 2);
  EXPECT_EQ(run.output.size(), body_size / 2);
  EXPECT_EQ(run.end, ending::none);
  EXPECT_TRUE(run.body_complete);
}

TEST(Truncate, LengthOnlyAnnouncesTheCutAndLeavesTheRange) {
  for (const char* params :
       {R"({"at": "50%", "mode": "length-only"})", R"({"at": 50001, "mode": "length-only"})"}) {
    const auto run = run_every_split("truncate", params, body_size);
    EXPECT_EQ(run.announced, body_size / 2) << params;
    EXPECT_FALSE(run.range_follows) << params;
    EXPECT_TRUE(run.output == patterned_body(body_size).substr(0, body_size / 2)) << params;
    EXPECT_EQ(run.end, ending::none) << params;
    EXPECT_TRUE(run.body_complete) << params;
  }
}

TEST(Truncate, LengthOnlyAtZeroAnnouncesAnEmptyBody) {
  const auto run = run_every_split("truncate", R"({"at": 0, "mode": "length-only"})", body_size);
  EXPECT_EQ(run.announced, 0u);
  EXPECT_FALSE(run.range_follows);
  EXPECT_TRUE(run.output.empty());
  EXPECT_TRUE(run.body_complete);
}

TEST(Truncate, CutAtZeroSendsNothing) {
  const auto run = run_every_split("truncate", R"({"at": 0})", body_size);
  EXPECT_TRUE(run.output.empty());
  EXPECT_EQ(run.end, ending::close);
}

TEST(Truncate, CutAtOrPastTheEndChangesNothing) {
  for (const char* params :
       {R"({"at": 100003, "mode": "consistent"})", R"({"at": "1MiB"})",
        R"({"at": "100%", "mode": "consistent"})", R"({"at": "100%", "mode": "length-only"})"}) {
    const auto run = run_every_split("truncate", params, body_size);
    EXPECT_FALSE(run.announced) << params;
    EXPECT_TRUE(run.output == patterned_body(body_size)) << params;
    EXPECT_EQ(run.end, ending::none) << params;
    EXPECT_FALSE(run.body_complete) << params;
  }
}

TEST(Truncate, CutAtTheEndOfABodyOfUnknownLengthChangesNothing) {
  for (const char* params : {R"({"at": 100003})", R"({"at": 100003, "mode": "consistent"})"}) {
    const auto run = run_every_split("truncate", params, std::nullopt);
    EXPECT_TRUE(run.output == patterned_body(body_size)) << params;
    EXPECT_EQ(run.end, ending::none) << params;
    EXPECT_FALSE(run.body_complete) << params;
  }
}

TEST(Truncate, FractionOfAnUnknownLengthPassesEverything) {
  const auto run = run_every_split("truncate", R"({"at": "50%"})", std::nullopt);
  EXPECT_TRUE(run.output == patterned_body(body_size));
  EXPECT_EQ(run.end, ending::none);
}

TEST(Truncate, ConsistentOrLengthOnlyWithUnknownLengthEndsTheBodyAtTheCut) {
  for (const char* params :
       {R"({"at": 1000, "mode": "consistent"})", R"({"at": 1000, "mode": "length-only"})"}) {
    const auto run = run_every_split("truncate", params, std::nullopt);
    EXPECT_FALSE(run.announced) << params; // nothing to rewrite: chunked or close-delimited
    EXPECT_EQ(run.output.size(), 1000u) << params;
    EXPECT_TRUE(run.body_complete) << params;
  }
}

TEST(Corrupt, FlipsExactlyTheGivenOffsets) {
  const std::string body = patterned_body(body_size);
  const auto run = run_every_split(
      "corrupt", R"({"offsets": [0, 6, 7, 65535, 65536, 100002, 200000]})", body_size);
  EXPECT_EQ(run.output.size(), body.size());
  EXPECT_EQ(run.end, ending::none);
  EXPECT_EQ(differing_offsets(run.output, body),
            (std::set<std::uint64_t>{0, 6, 7, 65535, 65536, 100002}));
  for (const std::uint64_t offset : {0u, 6u, 65536u}) {
    EXPECT_EQ(static_cast<unsigned char>(run.output[offset]),
              static_cast<unsigned char>(body[offset]) ^ 0xFFu);
  }
}

TEST(Corrupt, CountFlipsThatManyDistinctBytesChosenBySeed) {
  const std::string body = patterned_body(body_size);
  const auto run = run_every_split("corrupt", R"({"count": 5})", body_size);
  EXPECT_EQ(run.output.size(), body.size());
  const auto flipped = differing_offsets(run.output, body);
  EXPECT_EQ(flipped.size(), 5u);

  // The same seed picks the same bytes; another seed (very likely) others.
  const auto action = make_action("corrupt", R"({"count": 5})");
  const auto flipped_with_seed = [&](random_engine::result_type seed) {
    random_engine random(seed);
    auto filter = action->make_body_filter(random);
    return differing_offsets(run_filter(*filter, body, 4096, body_size).output, body);
  };
  EXPECT_EQ(flipped_with_seed(99), flipped);
  EXPECT_NE(flipped_with_seed(100), flipped);
}

TEST(Corrupt, CountAtLeastTheLengthFlipsEveryByte) {
  const auto run = run_every_split("corrupt", R"({"count": 50})", 20, 20);
  EXPECT_EQ(differing_offsets(run.output, patterned_body(20)).size(), 20u);
}

TEST(ResetAfter, PassesTheFirstBytesThenResets) {
  const auto run = run_every_split("reset-after", R"({"bytes": 12345})", body_size);
  EXPECT_EQ(run.output.size(), 12345u);
  EXPECT_TRUE(run.output == patterned_body(body_size).substr(0, 12345));
  EXPECT_EQ(run.end, ending::reset);
}

TEST(ResetAfter, ZeroResetsBeforeAnyByte) {
  const auto run = run_every_split("reset-after", R"({"bytes": 0})", body_size);
  EXPECT_TRUE(run.output.empty());
  EXPECT_EQ(run.end, ending::reset);
}

TEST(ResetAfter, PastTheEndLeavesTheBodyAlone) {
  const auto run = run_every_split("reset-after", R"({"bytes": "1MiB"})", body_size);
  EXPECT_TRUE(run.output == patterned_body(body_size));
  EXPECT_EQ(run.end, ending::none);
}

TEST(ResetAfter, AFractionOfTheDeclaredLength) {
  const auto run = run_every_split("reset-after", R"({"bytes": "50%"})", body_size);
  EXPECT_FALSE(run.announced); // the client is told the store's length
  EXPECT_EQ(run.output.size(), body_size / 2);
  EXPECT_TRUE(run.output == patterned_body(body_size).substr(0, body_size / 2));
  EXPECT_EQ(run.end, ending::reset);
}

TEST(ResetAfter, AllOfTheBodyThenAReset) {
  const auto run = run_every_split("reset-after", R"({"bytes": "100%"})", body_size);
  EXPECT_TRUE(run.output == patterned_body(body_size));
  EXPECT_EQ(run.end, ending::reset);
}

TEST(ResetAfter, AFractionOfAnUnknownLengthLeavesTheBodyAlone) {
  const auto run = run_every_split("reset-after", R"({"bytes": "50%"})", std::nullopt);
  EXPECT_TRUE(run.output == patterned_body(body_size));
  EXPECT_EQ(run.end, ending::none);
  // Offered bytes without being told any length, too.
  random_engine random(1);
  const auto filter = make_action("reset-after", R"({"bytes": "50%"})")->make_body_filter(random);
  std::string chunk(10, 'x');
  EXPECT_EQ(filter->on_bytes(chunk, 0, {}).end, ending::none);
  EXPECT_FALSE(filter->changed_body());
}

TEST(ResetAfter, AByteCountNeedsNoLength) {
  const auto run = run_every_split("reset-after", R"({"bytes": 100})", std::nullopt);
  EXPECT_EQ(run.output.size(), 100u);
  EXPECT_EQ(run.end, ending::reset);
}

TEST(Stall, PausesOnceExactlyAtTheOffset) {
  const auto run = run_every_split("stall", R"({"after": 30000, "duration": "2s"})", body_size);
  EXPECT_TRUE(run.output == patterned_body(body_size));
  EXPECT_EQ(run.end, ending::none);
  ASSERT_EQ(run.pauses.size(), 1u);
  EXPECT_EQ(run.pauses[0].first, 30000u);
  EXPECT_EQ(run.pauses[0].second, 2s);
}

TEST(Stall, AtZeroPausesBeforeTheFirstByte) {
  const auto run = run_every_split("stall", R"({"after": 0, "duration": "1s"})", body_size);
  ASSERT_EQ(run.pauses.size(), 1u);
  EXPECT_EQ(run.pauses[0].first, 0u);
}

TEST(Stall, PastTheEndNeverPauses) {
  const auto run = run_every_split("stall", R"({"after": "1MiB", "duration": "1s"})", body_size);
  EXPECT_TRUE(run.pauses.empty());
  EXPECT_TRUE(run.output == patterned_body(body_size));
}

TEST(Throttle, PausesAddUpToBytesOverRate) {
  // 100003 bytes at 100000 B/s: about 1.00003 s of pauses, in steps of at most 50 ms of bytes.
  const auto run = run_every_split("throttle", R"({"rate": 100000})", body_size, body_size,
                                   pauses_agree::in_total);
  EXPECT_TRUE(run.output == patterned_body(body_size));
  EXPECT_EQ(run.end, ending::none);
  EXPECT_NEAR(std::chrono::duration<double>(run.total_pause).count(), 1.00003, 0.001);
  EXPECT_LE(run.largest_step, 5000u);
}

TEST(Throttle, MebibytePerSecond) {
  const auto run = run_every_split("throttle", R"({"rate": "1MiB/s"})", 256 * 1024, 256 * 1024,
                                   pauses_agree::in_total);
  EXPECT_NEAR(std::chrono::duration<double>(run.total_pause).count(), 0.25, 0.001);
  EXPECT_LE(run.largest_step, 1048576u / 20);
}

TEST(Throttle, NoBurstAfterWaitingElsewhere) {
  const auto action = make_action("throttle", R"({"rate": 1000})");
  random_engine random(1);
  auto filter = action->make_body_filter(random);
  std::string chunk(50, 'x');
  clock::time_point now{};
  const auto first = filter->on_bytes(chunk, 0, now);
  EXPECT_EQ(first.pass, 50u);
  EXPECT_EQ(first.pause, 50ms);
  // The store took 10 s to send more: the next bytes are still paced, not sent at once.
  now += first.pause + 10s;
  const auto second = filter->on_bytes(chunk, 50, now);
  EXPECT_EQ(second.pass, 50u);
  EXPECT_EQ(second.pause, 50ms);
}

TEST(RequestBodyActions, ThrottleAndResetAfterWorkTheSameWay) {
  const auto throttled = run_every_split("request-throttle", R"({"rate": "64KiB/s"})", body_size,
                                         body_size, pauses_agree::in_total);
  EXPECT_TRUE(throttled.output == patterned_body(body_size));
  EXPECT_NEAR(std::chrono::duration<double>(throttled.total_pause).count(),
              static_cast<double>(body_size) / 65536, 0.001);

  const auto reset = run_every_split("request-reset-after", R"({"bytes": 777})", body_size);
  EXPECT_EQ(reset.output.size(), 777u);
  EXPECT_EQ(reset.end, ending::reset);

  const auto half = run_every_split("request-reset-after", R"({"bytes": "50%"})", body_size);
  EXPECT_EQ(half.output.size(), body_size / 2);
  EXPECT_EQ(half.end, ending::reset);
}

TEST(BodyActions, EachExchangeGetsItsOwnFilterState) {
  // One shared action, two exchanges: the second starts from scratch.
  const auto action = make_action("stall", R"({"after": 10, "duration": "1s"})");
  random_engine random(1);
  for (int exchange = 0; exchange < 2; ++exchange) {
    auto filter = action->make_body_filter(random);
    const auto run = run_filter(*filter, patterned_body(100), 7, 100);
    EXPECT_EQ(run.pauses.size(), 1u) << exchange;
  }
}
