#include "faults/s3_error_codes.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace s3fault::faults;

namespace {

struct expected_code {
  const char* code;
  unsigned status;
};

} // namespace

TEST(S3ErrorCodes, CommonCodesWithTheirStatus) {
  const expected_code expected[] = {
      {"SlowDown", 503},
      {"SlowDownRead", 503},
      {"SlowDownWrite", 503},
      {"InternalError", 500},
      {"ServiceUnavailable", 503},
      {"RequestTimeout", 400},
      {"AccessDenied", 403},
      {"NoSuchKey", 404},
      {"NoSuchBucket", 404},
      {"NoSuchUpload", 404},
      {"InvalidPartNumber", 416},
      {"InvalidRange", 416},
      {"InvalidPart", 400},
      {"PreconditionFailed", 412},
      {"RequestTimeTooSkewed", 403},
      {"SignatureDoesNotMatch", 403},
      {"NotImplemented", 501},
      {"ExpiredToken", 400},
      {"BadDigest", 400},
      {"EntityTooSmall", 400},
  };
  for (const auto& entry : expected) {
    const s3_error_code* found = find_s3_error_code(entry.code);
    ASSERT_NE(found, nullptr) << entry.code;
    EXPECT_EQ(found->status, entry.status) << entry.code;
    EXPECT_FALSE(found->message.empty()) << entry.code;
  }
}

TEST(S3ErrorCodes, AwsMessagesForTheRetryableOnes) {
  EXPECT_EQ(find_s3_error_code("SlowDown")->message, "Please reduce your request rate.");
  EXPECT_EQ(find_s3_error_code("InternalError")->message,
            "We encountered an internal error. Please try again.");
}

TEST(S3ErrorCodes, EachCodeOnceAndCaseSensitive) {
  std::set<std::string> seen;
  for (const auto& entry : s3_error_codes()) {
    EXPECT_TRUE(seen.insert(std::string(entry.code)).second) << entry.code;
    EXPECT_GE(entry.status, 300u);
    EXPECT_LE(entry.status, 599u);
  }
  EXPECT_EQ(find_s3_error_code("slowdown"), nullptr);
  EXPECT_EQ(find_s3_error_code("NoSuchThing"), nullptr);
}
