#include "conformance/origin/http_date.hpp"

#include <gtest/gtest.h>

namespace s3fault::origin {
namespace {

const time_point sample = std::chrono::system_clock::from_time_t(784111777); // 1994-11-06 08:49:37

TEST(HttpDate, FormatsImfFixdate) {
  EXPECT_EQ(format_http_date(sample), "Sun, 06 Nov 1994 08:49:37 GMT");
}

TEST(HttpDate, ParsesTheThreeRfc7231Forms) {
  EXPECT_EQ(parse_http_date("Sun, 06 Nov 1994 08:49:37 GMT"), sample);
  EXPECT_EQ(parse_http_date("Sunday, 06-Nov-94 08:49:37 GMT"), sample);
  EXPECT_EQ(parse_http_date("Sun Nov  6 08:49:37 1994"), sample);
}

TEST(HttpDate, RejectsOtherText) {
  for (const char* bad :
       {"", "yesterday", "Sun, 06 Nov 1994 08:49:37", "Sun, 32 Nov 1994 08:49:37 GMT",
        "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMT x"}) {
    EXPECT_FALSE(parse_http_date(bad).has_value()) << bad;
  }
}

TEST(Rfc3339, ParsesZuluOffsetsAndFractions) {
  using std::chrono::microseconds;
  using std::chrono::milliseconds;
  using std::chrono::system_clock;
  const auto parse = [](const char* text) { return text::parse_rfc3339(text); };
  EXPECT_EQ(parse("1994-11-06T08:49:37Z"), sample);
  EXPECT_EQ(parse("1994-11-06t08:49:37z"), sample);
  EXPECT_EQ(parse("1994-11-06 08:49:37Z"), sample);
  EXPECT_EQ(parse("1994-11-06T10:49:37+02:00"), sample);
  EXPECT_EQ(parse("1994-11-06T07:19:37-01:30"), sample);
  EXPECT_EQ(parse("1994-11-06T08:49:37.042Z"), sample + milliseconds(42));
  EXPECT_EQ(parse("1994-11-06T08:49:37.5Z"), sample + milliseconds(500));
  EXPECT_EQ(parse("1994-11-06T08:49:37.123456789Z"), sample + microseconds(123456));
  EXPECT_EQ(parse(format_iso8601(sample + milliseconds(7)).c_str()), sample + milliseconds(7));
  for (const char* bad :
       {"", "1994-11-06", "1994-11-06T08:49:37", "1994-11-06T08:49Z", "1994-13-06T08:49:37Z",
        "1994-11-06T08:49:37+0200", "1994-11-06T08:49:37Zx", "+30s", "1994-11-06T08:49:37.Z"}) {
    EXPECT_FALSE(parse(bad).has_value()) << bad;
  }
}

TEST(Iso8601, HasMilliseconds) {
  EXPECT_EQ(format_iso8601(sample + std::chrono::milliseconds(42)), "1994-11-06T08:49:37.042Z");
}

} // namespace
} // namespace s3fault::origin
