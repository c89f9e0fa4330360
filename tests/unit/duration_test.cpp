// cli::parse_duration is text::parse_duration (tests/unit/text/quantities_test.cpp) in whole
// milliseconds, as the command line's timeouts take it.
#include "cli/duration.hpp"

#include <gtest/gtest.h>

using s3fault::cli::parse_duration;
using namespace std::chrono_literals;

TEST(Duration, TheSharedSyntaxInMilliseconds) {
  EXPECT_EQ(parse_duration("250ms"), 250ms);
  EXPECT_EQ(parse_duration("10"), 10s);
  EXPECT_EQ(parse_duration("1.5s"), 1500ms);
  EXPECT_EQ(parse_duration("1500us"), 1ms); // below a millisecond is cut off
  EXPECT_FALSE(parse_duration(""));
  EXPECT_FALSE(parse_duration("-1s"));
}
