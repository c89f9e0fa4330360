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

TEST(Iso8601, HasMilliseconds) {
  EXPECT_EQ(format_iso8601(sample + std::chrono::milliseconds(42)), "1994-11-06T08:49:37.042Z");
}

} // namespace
} // namespace s3fault::origin
