// Fault parameter values given as JSON (numbers and text); the text forms themselves are tested
// in tests/unit/text/quantities_test.cpp.
#include "faults/values.hpp"

#include <gtest/gtest.h>

#include <cmath>

using namespace s3fault::faults;
using namespace std::chrono_literals;
using nlohmann::json;

TEST(Sizes, UnitsAndNumbers) {
  EXPECT_EQ(parse_size(json(4096)), 4096u);
  EXPECT_EQ(parse_size(json(4096.0)), 4096u);
  EXPECT_EQ(parse_size(json("8KiB")), 8192u);
}

TEST(Sizes, Rejected) {
  EXPECT_FALSE(parse_size(json(-1)));
  EXPECT_FALSE(parse_size(json(1.5)));
  EXPECT_FALSE(parse_size(json(true)));
  EXPECT_FALSE(parse_size(json::array()));
  EXPECT_FALSE(parse_size(json()));
}

TEST(Durations, UnitsAndNumbers) {
  EXPECT_EQ(parse_duration(json(2)), 2s);
  EXPECT_EQ(parse_duration(json(0.25)), 250ms);
  EXPECT_EQ(parse_duration(json("10ms")), 10ms);
}

TEST(Durations, Rejected) {
  EXPECT_FALSE(parse_duration(json(-0.5)));
  EXPECT_FALSE(parse_duration(json(false)));
  EXPECT_FALSE(parse_duration(json::object()));
}

TEST(Rates, UnitsAndNumbers) {
  EXPECT_EQ(parse_rate(json(2048)), 2048u);
  EXPECT_EQ(parse_rate(json("2KiB/s")), 2048u);
}

TEST(Rates, Rejected) {
  EXPECT_FALSE(parse_rate(json(0)));
  EXPECT_FALSE(parse_rate(json(-100)));
}

TEST(Fractions, PercentOrNumber) {
  EXPECT_EQ(parse_fraction(json(0.25)), 0.25);
  EXPECT_EQ(parse_fraction(json(1)), 1.0);
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
  EXPECT_EQ(parse_size_or_fraction(json("1"))->bytes, 1u);
  EXPECT_EQ(parse_size_or_fraction(json("0.5KiB"))->bytes, 512u);
  EXPECT_EQ(parse_size_or_fraction(json("1.0"))->resolve(100), 100u); // a fraction of a byte
  for (const json& bad :
       {json("abc"), json("150%"), json(1.5), json(-1), json(nullptr), json("5.0"), json("1.5")}) {
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
