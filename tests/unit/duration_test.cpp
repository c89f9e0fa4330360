#include "cli/duration.hpp"

#include <gtest/gtest.h>

using s3fault::cli::parse_duration;
using namespace std::chrono_literals;

TEST(Duration, Units) {
  EXPECT_EQ(parse_duration("250ms"), 250ms);
  EXPECT_EQ(parse_duration("10s"), 10s);
  EXPECT_EQ(parse_duration("10"), 10s);
  EXPECT_EQ(parse_duration("1.5s"), 1500ms);
  EXPECT_EQ(parse_duration("2m"), 120s);
  EXPECT_EQ(parse_duration("1h"), 3600s);
  EXPECT_FALSE(parse_duration(""));
  EXPECT_FALSE(parse_duration("ten"));
  EXPECT_FALSE(parse_duration("5 parsecs"));
  EXPECT_FALSE(parse_duration("-1s"));
}
