// The shared text rules on plain values: what counts as blank, ASCII-only case folding, and the
// one rule for whole numbers with its edge cases (signs, blanks, ".0", overflow, leading zeros).
#include "text/text.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace s3fault::text {
namespace {

TEST(Trim, RemovesSpacesAndTabsAtBothEnds) {
  EXPECT_EQ(trim("  a b\t"), "a b");
  EXPECT_EQ(trim("\t\t"), "");
  EXPECT_EQ(trim(""), "");
  EXPECT_EQ(trim("x"), "x");
  // Only HTTP's optional whitespace: line ends and other bytes stay.
  EXPECT_EQ(trim("\r\nx\n"), "\r\nx\n");
}

TEST(Iequal, IgnoresAsciiCaseOnly) {
  EXPECT_TRUE(iequal("Content-Length", "content-LENGTH"));
  EXPECT_TRUE(iequal("", ""));
  EXPECT_FALSE(iequal("Content-Length", "Content-Lengt"));
  EXPECT_FALSE(iequal("a", "b"));
  // '@' and '`' sit next to 'A' and 'a' but are not letters; non-ASCII bytes compare as bytes.
  EXPECT_FALSE(iequal("@", "`"));
  EXPECT_FALSE(iequal("\xC4", "\xE4"));
  EXPECT_TRUE(iequal("\xC4", "\xC4"));
}

TEST(AsciiCase, ChangesLettersOnly) {
  EXPECT_EQ(ascii_lower("X-Amz-Meta-ONE_2"), "x-amz-meta-one_2");
  EXPECT_EQ(ascii_upper("enabled-1"), "ENABLED-1");
  EXPECT_EQ(ascii_lower("\xC4"), "\xC4");
}

TEST(WholeNumber, IsAsciiDigitsOnly) {
  EXPECT_EQ(parse_whole_number("0"), 0u);
  EXPECT_EQ(parse_whole_number("5"), 5u);
  EXPECT_EQ(parse_whole_number("10000"), 10000u);
  EXPECT_EQ(parse_whole_number("007"), 7u); // leading zeros are allowed
  for (const char* text : {"", "+5", "-5", "-0", " 5", "5 ", "5\t", "5.0", "5.", ".5", "5e0", "0x5",
                           "5KiB", "five", "1_000", "1,000", "\xD9\xA5"}) {
    EXPECT_FALSE(parse_whole_number(text)) << "'" << text << "'";
  }
}

TEST(WholeNumber, RefusesWhatDoesNotFitTheType) {
  EXPECT_EQ(parse_whole_number("18446744073709551615"), std::numeric_limits<std::uint64_t>::max());
  EXPECT_FALSE(parse_whole_number("18446744073709551616"));
  EXPECT_FALSE(parse_whole_number("99999999999999999999999"));
  // Leading zeros do not count towards the size.
  EXPECT_EQ(parse_whole_number("000000000000000000000001"), 1u);

  EXPECT_EQ(parse_whole_number<std::uint16_t>("65535"), 65535u);
  EXPECT_FALSE(parse_whole_number<std::uint16_t>("65536"));
  EXPECT_EQ(parse_whole_number<unsigned>("4294967295"), 4294967295u);
  EXPECT_FALSE(parse_whole_number<unsigned>("4294967296"));
}

} // namespace
} // namespace s3fault::text
