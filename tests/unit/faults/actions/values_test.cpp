#include "faults/values.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace s3fault::faults;
using namespace std::chrono_literals;
using nlohmann::json;

TEST(Sizes, UnitsAndNumbers) {
  EXPECT_EQ(parse_size_text("1000"), 1000u);
  EXPECT_EQ(parse_size_text("0"), 0u);
  EXPECT_EQ(parse_size_text("64KiB"), 65536u);
  EXPECT_EQ(parse_size_text("1MiB"), 1048576u);
  EXPECT_EQ(parse_size_text("1.5GiB"), 1610612736u);
  EXPECT_EQ(parse_size_text("10KB"), 10000u);
  EXPECT_EQ(parse_size_text("2MB"), 2000000u);
  EXPECT_EQ(parse_size_text("1TiB"), 1ULL << 40);
  EXPECT_EQ(parse_size_text("12B"), 12u);
  EXPECT_EQ(parse_size_text("64 kib"), 65536u);
  EXPECT_EQ(parse_size_text("1.1KiB"), 1126u); // fractions of a unit round down
  EXPECT_EQ(parse_size(json(4096)), 4096u);
  EXPECT_EQ(parse_size(json(4096.0)), 4096u);
  EXPECT_EQ(parse_size(json("8KiB")), 8192u);
}

TEST(Sizes, Rejected) {
  for (const char* text : {"", "abc", "-1", "1.5", "1.5B", "1e3", "10 parsecs", "KiB", "1MiB/s",
                           "inf", "nan", ".5KiB", "99999999999TiB"}) {
    EXPECT_FALSE(parse_size_text(text)) << text;
  }
  EXPECT_FALSE(parse_size(json(-1)));
  EXPECT_FALSE(parse_size(json(1.5)));
  EXPECT_FALSE(parse_size(json(true)));
  EXPECT_FALSE(parse_size(json::array()));
  EXPECT_FALSE(parse_size(json()));
}

TEST(Durations, UnitsAndNumbers) {
  EXPECT_EQ(parse_duration_text("250ms"), 250ms);
  EXPECT_EQ(parse_duration_text("2s"), 2s);
  EXPECT_EQ(parse_duration_text("1m"), 60s);
  EXPECT_EQ(parse_duration_text("1h"), 3600s);
  EXPECT_EQ(parse_duration_text("1.5s"), 1500ms);
  EXPECT_EQ(parse_duration_text("500us"), 500us);
  EXPECT_EQ(parse_duration_text("100ns"), 100ns);
  EXPECT_EQ(parse_duration_text("3"), 3s); // a bare number is seconds
  EXPECT_EQ(parse_duration_text("0"), 0s);
  EXPECT_EQ(parse_duration(json(2)), 2s);
  EXPECT_EQ(parse_duration(json(0.25)), 250ms);
  EXPECT_EQ(parse_duration(json("10ms")), 10ms);
}

TEST(Durations, Rejected) {
  for (const char* text : {"", "soon", "-1s", "1d", "5 parsecs", "ms", "1e3s", "400000h"}) {
    EXPECT_FALSE(parse_duration_text(text)) << text;
  }
  EXPECT_FALSE(parse_duration(json(-0.5)));
  EXPECT_FALSE(parse_duration(json(false)));
  EXPECT_FALSE(parse_duration(json::object()));
}

TEST(Durations, FormatReadsBackExactly) {
  for (const std::chrono::nanoseconds duration :
       std::vector<std::chrono::nanoseconds>{0ns, 250ms, 2s, 1500ms, 120s, 750us, 13ns}) {
    EXPECT_EQ(parse_duration_text(format_duration(duration)), duration)
        << format_duration(duration);
  }
  EXPECT_EQ(format_duration(250ms), "250ms");
  EXPECT_EQ(format_duration(2s), "2s");
}

TEST(Rates, UnitsAndNumbers) {
  EXPECT_EQ(parse_rate_text("1MiB/s"), 1048576u);
  EXPECT_EQ(parse_rate_text("500KiB/s"), 512000u);
  EXPECT_EQ(parse_rate_text("100000"), 100000u);
  EXPECT_EQ(parse_rate_text("100000/s"), 100000u);
  EXPECT_EQ(parse_rate_text("100B/s"), 100u);
  EXPECT_EQ(parse_rate_text("10KB/s"), 10000u);
  EXPECT_EQ(parse_rate_text("0.5KiB/s"), 512u);
  EXPECT_EQ(parse_rate(json(2048)), 2048u);
  EXPECT_EQ(parse_rate(json("2KiB/s")), 2048u);
}

TEST(Rates, Rejected) {
  for (const char* text : {"", "fast", "0", "0/s", "1MiB", "1MiB/h", "-5/s", "0.5"}) {
    EXPECT_FALSE(parse_rate_text(text)) << text;
  }
  EXPECT_FALSE(parse_rate(json(0)));
  EXPECT_FALSE(parse_rate(json(-100)));
}

TEST(Rates, FormatReadsBackExactly) {
  for (const std::uint64_t rate : {1ULL, 1000ULL, 1024ULL, 1048576ULL, 1536ULL, 100000ULL}) {
    EXPECT_EQ(parse_rate_text(format_rate(rate)), rate) << format_rate(rate);
  }
  EXPECT_EQ(format_rate(1048576), "1MiB/s");
  EXPECT_EQ(format_rate(100000), "100000B/s");
}

TEST(Fractions, PercentOrNumber) {
  EXPECT_EQ(parse_fraction_text("50%"), 0.5);
  EXPECT_EQ(parse_fraction_text("0.5"), 0.5);
  EXPECT_EQ(parse_fraction_text("100%"), 1.0);
  EXPECT_EQ(parse_fraction_text("0%"), 0.0);
  EXPECT_EQ(parse_fraction(json(0.25)), 0.25);
  EXPECT_EQ(parse_fraction(json(1)), 1.0);
  for (const char* text : {"150%", "1.5", "-10%", "half", "50 percent", ""}) {
    EXPECT_FALSE(parse_fraction_text(text)) << text;
  }
  EXPECT_FALSE(parse_fraction(json(2)));
}

TEST(SizeOrFraction, BytesAndFractions) {
  const auto bytes = parse_size_or_fraction(json("1MiB"));
  ASSERT_TRUE(bytes);
  EXPECT_EQ(bytes->resolve(std::nullopt), 1048576u);
  EXPECT_EQ(bytes->resolve(10), 1048576u); // a byte offset does not depend on the length

  const auto half = parse_size_or_fraction(json("50%"));
  ASSERT_TRUE(half);
  EXPECT_FALSE(half->bytes);
  EXPECT_EQ(half->resolve(1001), 500u);
  EXPECT_FALSE(half->resolve(std::nullopt));
  EXPECT_EQ(half->to_json(), json("50%"));

  EXPECT_EQ(parse_size_or_fraction(json(0.25))->resolve(100), 25u);
  EXPECT_EQ(parse_size_or_fraction(json("0.25"))->resolve(100), 25u);
  EXPECT_EQ(parse_size_or_fraction(json(1))->resolve(100), 1u); // JSON 1 is one byte
  EXPECT_EQ(parse_size_or_fraction(json("100%"))->resolve(100), 100u);
  EXPECT_EQ(parse_size_or_fraction(json("33.3%"))->to_json(), json("33.3%"));
  for (const json& bad : {json("abc"), json("150%"), json(1.5), json(-1), json(nullptr)}) {
    EXPECT_FALSE(parse_size_or_fraction(bad)) << bad.dump();
  }
}

TEST(ErrorText, NamesFieldAllowedAndGot) {
  EXPECT_EQ(must_be("at", "a size like 1MiB", json("abc")),
            "at: must be a size like 1MiB (got \"abc\")");
  EXPECT_EQ(must_be("code", "a number", json(7)), "code: must be a number (got 7)");
  const std::string long_text(100, 'x');
  EXPECT_EQ(describe_got(json(long_text)).size(), 60u);
}

// The one whole-number rule for JSON values: the number's value counts, text is digits only.
TEST(WholeNumbers, JsonNumbersByValueTextByDigits) {
  EXPECT_EQ(whole_number(json(5)), 5u);
  EXPECT_EQ(whole_number(json(0)), 0u);
  EXPECT_EQ(whole_number(json(5.0)), 5u); // YAML and JSON encoders may write 5 as 5.0
  EXPECT_EQ(whole_number(json(-0.0)), 0u);
  EXPECT_EQ(whole_number(json(1e3)), 1000u);
  EXPECT_EQ(whole_number(json(18446744073709551615u)), 18446744073709551615u);
  EXPECT_EQ(whole_number(json("5")), 5u);
  EXPECT_EQ(whole_number(json("007")), 7u);
  EXPECT_EQ(whole_number(json("18446744073709551615")), 18446744073709551615u);
  for (const json& value :
       {json(-1), json(5.5), json(-5.0), json(1.8446744073709552e19), json(INFINITY), json(NAN),
        json("5.0"), json(" 5"), json("5 "), json("+5"), json("-0"), json(""), json("0x5"),
        json("18446744073709551616"), json(true), json(nullptr), json::array({5}),
        json::object()}) {
    EXPECT_FALSE(whole_number(value)) << value.dump();
  }
}
