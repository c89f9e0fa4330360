// Content-Range as S3 sends it: read strictly, written in one form.
#include "text/content_range.hpp"

#include <gtest/gtest.h>

namespace s3fault::text {
namespace {

TEST(ContentRange, ReadsFirstLastAndTotal) {
  const auto range = parse_content_range("bytes 5242880-10485759/11534336");
  ASSERT_TRUE(range);
  EXPECT_EQ(range->first, 5242880u);
  EXPECT_EQ(range->last, 10485759u);
  EXPECT_EQ(range->total, 11534336u);
  EXPECT_EQ(range->length(), 5242880u);
  EXPECT_TRUE(parse_content_range("bytes 0-0/1"));
  EXPECT_TRUE(parse_content_range("bytes 0-18446744073709551614/18446744073709551615"));
}

TEST(ContentRange, RefusesWhatCannotPlaceBytes) {
  for (const auto* text :
       {"", "bytes */100", "bytes 0-9/*", "bytes 10-9/100", "bytes 0-100/100", "items 0-9/100",
        "bytes 0-9", "bytes -9/100", "bytes 0-9/100 ", "bytes 0x1-9/100", "Bytes 0-9/100",
        "bytes +0-9/100", "bytes 0-9.0/100", "bytes 0 -9/100", "bytes  0-9/100",
        "bytes 0-9/18446744073709551616", "bytes 0-9/100/200"}) {
    EXPECT_FALSE(parse_content_range(text)) << "'" << text << "'";
  }
}

TEST(ContentRange, WritesWhatItReads) {
  EXPECT_EQ(format_content_range(5242880, 10485759, 11538469), "bytes 5242880-10485759/11538469");
  const auto again = parse_content_range(format_content_range(0, 0, 1));
  ASSERT_TRUE(again);
  EXPECT_EQ(again->length(), 1u);
}

} // namespace
} // namespace s3fault::text
