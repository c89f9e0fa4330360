// The shared table of S3 error codes: the statuses clients act on, AWS's messages, each code once,
// and the codes the origin sends (which must all be here: known_s3_error would not compile).
#include "s3_errors/s3_error_codes.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

using namespace s3fault::s3_errors;

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
      // The ones the origin sends that the fault engine did not know before the tables merged.
      {"AuthorizationHeaderMalformed", 400},
      {"AuthorizationQueryParametersError", 400},
      {"BucketAlreadyOwnedByYou", 409},
      {"IllegalLocationConstraintException", 400},
      {"InvalidBucketName", 400},
      {"InvalidLocationConstraint", 400},
      {"KeyTooLongError", 400},
      {"MaxMessageLengthExceeded", 400},
      {"MetadataTooLarge", 400},
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

TEST(S3ErrorCodes, KnownCodesResolveAtCompileTime) {
  static_assert(known_s3_error("SlowDown").status == 503);
  static_assert(known_s3_error("NoSuchKey").status == 404);
  static_assert(find_s3_error_code("NoSuchThing") == nullptr);
  EXPECT_EQ(&known_s3_error("InvalidRange"), find_s3_error_code("InvalidRange"));
  EXPECT_EQ(s3_error_codes().size(), known_codes.size());
}
