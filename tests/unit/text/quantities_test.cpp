// Sizes, rates, durations and fractions written as text: units, edge cases, and the canonical
// texts that read back exactly.
#include "text/quantities.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace s3fault::text {
namespace {

using namespace std::chrono_literals;

TEST(Sizes, UnitsAndNumbers) {
  EXPECT_EQ(parse_size("1000"), 1000u);
  EXPECT_EQ(parse_size("0"), 0u);
  EXPECT_EQ(parse_size("64KiB"), 65536u);
  EXPECT_EQ(parse_size("1MiB"), 1048576u);
  EXPECT_EQ(parse_size("1.5GiB"), 1610612736u);
  EXPECT_EQ(parse_size("10KB"), 10000u);
  EXPECT_EQ(parse_size("2MB"), 2000000u);
  EXPECT_EQ(parse_size("1TiB"), 1ULL << 40);
  EXPECT_EQ(parse_size("12B"), 12u);
  EXPECT_EQ(parse_size("64 kib"), 65536u);
  EXPECT_EQ(parse_size(" 8MiB\t"), 8388608u);
  EXPECT_EQ(parse_size("1.1KiB"), 1126u); // fractions of a unit round down
  // Whole counts are exact, not rounded through a double.
  EXPECT_EQ(parse_size("18446744073709551615"), 18446744073709551615u);
  EXPECT_EQ(parse_size("9007199254740993"), 9007199254740993u);
  EXPECT_EQ(parse_size("16777215TiB"), 16777215ULL << 40);
  EXPECT_FALSE(parse_size("16777216TiB"));
  EXPECT_FALSE(parse_size("18446744073709551616"));
}

TEST(Sizes, Rejected) {
  for (const char* text : {"", "abc", "-1", "1.5", "1.5B", "1e3", "10 parsecs", "KiB", "1MiB/s",
                           "inf", "nan", ".5KiB", "99999999999TiB", "16EiB", "+1KiB"}) {
    EXPECT_FALSE(parse_size(text)) << text;
  }
}

TEST(Durations, UnitsAndNumbers) {
  EXPECT_EQ(parse_duration("250ms"), 250ms);
  EXPECT_EQ(parse_duration("2s"), 2s);
  EXPECT_EQ(parse_duration("1m"), 60s);
  EXPECT_EQ(parse_duration("1h"), 3600s);
  EXPECT_EQ(parse_duration("1.5s"), 1500ms);
  EXPECT_EQ(parse_duration("500us"), 500us);
  EXPECT_EQ(parse_duration("500µs"), 500us);
  EXPECT_EQ(parse_duration("100ns"), 100ns);
  EXPECT_EQ(parse_duration("3"), 3s); // a bare number is seconds
  EXPECT_EQ(parse_duration("0"), 0s);
  EXPECT_EQ(parse_duration("8760h"), 8760h); // a year is the most
}

TEST(Durations, Rejected) {
  for (const char* text :
       {"", "soon", "-1s", "1d", "5 parsecs", "ms", "1e3s", "400000h", "8761h", "2S", "1 m s"}) {
    EXPECT_FALSE(parse_duration(text)) << text;
  }
}

TEST(Durations, FromSecondsByTheSameRules) {
  EXPECT_EQ(duration_from_seconds(0.25L), 250ms);
  EXPECT_EQ(duration_from_seconds(0), 0s);
  EXPECT_FALSE(duration_from_seconds(-0.5L));
  EXPECT_FALSE(duration_from_seconds(366.0L * 24 * 3600));
}

TEST(Durations, FormatReadsBackExactly) {
  for (const std::chrono::nanoseconds duration :
       std::vector<std::chrono::nanoseconds>{0ns, 250ms, 2s, 1500ms, 120s, 750us, 13ns}) {
    EXPECT_EQ(parse_duration(format_duration(duration)), duration) << format_duration(duration);
  }
  EXPECT_EQ(format_duration(250ms), "250ms");
  EXPECT_EQ(format_duration(2s), "2s");
}

TEST(Rates, UnitsAndNumbers) {
  EXPECT_EQ(parse_rate("1MiB/s"), 1048576u);
  EXPECT_EQ(parse_rate("500KiB/s"), 512000u);
  EXPECT_EQ(parse_rate("100000"), 100000u);
  EXPECT_EQ(parse_rate("100000/s"), 100000u);
  EXPECT_EQ(parse_rate("100B/s"), 100u);
  EXPECT_EQ(parse_rate("10KB/s"), 10000u);
  EXPECT_EQ(parse_rate("0.5KiB/s"), 512u);
}

TEST(Rates, Rejected) {
  for (const char* text : {"", "fast", "0", "0/s", "1MiB", "1MiB/h", "-5/s", "0.5"}) {
    EXPECT_FALSE(parse_rate(text)) << text;
  }
}

TEST(Rates, FormatReadsBackExactly) {
  for (const std::uint64_t rate : {1ULL, 1000ULL, 1024ULL, 1048576ULL, 1536ULL, 100000ULL}) {
    EXPECT_EQ(parse_rate(format_rate(rate)), rate) << format_rate(rate);
  }
  EXPECT_EQ(format_rate(1048576), "1MiB/s");
  EXPECT_EQ(format_rate(100000), "100000B/s");
}

TEST(Fractions, PercentOrNumber) {
  EXPECT_EQ(parse_fraction("50%"), 0.5);
  EXPECT_EQ(parse_fraction("0.5"), 0.5);
  EXPECT_EQ(parse_fraction("100%"), 1.0);
  EXPECT_EQ(parse_fraction("0%"), 0.0);
  for (const char* text : {"150%", "1.5", "-10%", "half", "50 percent", ""}) {
    EXPECT_FALSE(parse_fraction(text)) << text;
  }
}

TEST(Percent, AsWritten) {
  EXPECT_EQ(parse_percent("33.3%"), 33.3);
  EXPECT_EQ(parse_percent("100%"), 100.0);
  EXPECT_EQ(parse_percent(" 0 %"), 0.0);
  for (const char* text : {"150%", "0.5", "50", "-1%", "%", ""}) {
    EXPECT_FALSE(parse_percent(text)) << text;
  }
}

} // namespace
} // namespace s3fault::text
