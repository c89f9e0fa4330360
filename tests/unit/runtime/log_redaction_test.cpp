// The one redaction of logged request targets, used by the proxy's exchange log and the origin's
// access log.
#include "runtime/log_redaction.hpp"

#include <gtest/gtest.h>

namespace s3fault::runtime {
namespace {

TEST(LogRedaction, RedactsPresignedCredentials) {
  const std::string target =
      "/b/k?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIDSECRET%2F20261129%2Fus-east-1"
      "&X-Amz-Signature=deadbeef&x-amz-security-token=TOKEN123&partNumber=2";
  const std::string redacted = redact_target(target);
  EXPECT_EQ(redacted.find("AKIDSECRET"), std::string::npos);
  EXPECT_EQ(redacted.find("deadbeef"), std::string::npos);
  EXPECT_EQ(redacted.find("TOKEN123"), std::string::npos);
  EXPECT_NE(redacted.find("partNumber=2"), std::string::npos);
  EXPECT_NE(redacted.find("X-Amz-Algorithm=AWS4-HMAC-SHA256"), std::string::npos);
  EXPECT_EQ(redact_target("/b/k?X-Amz-Credential=AK%2F1&x=1&X-Amz-Signature=abc"),
            "/b/k?X-Amz-Credential=REDACTED&x=1&X-Amz-Signature=REDACTED");
}

TEST(LogRedaction, RedactsSigV2Credentials) {
  EXPECT_EQ(redact_target("/b/k?AWSAccessKeyId=AKID&Expires=1700000000&Signature=c2ln"),
            "/b/k?AWSAccessKeyId=REDACTED&Expires=1700000000&Signature=REDACTED");
}

TEST(LogRedaction, NamesMatchWithoutRegardToCase) {
  EXPECT_EQ(redact_target("/b/k?x-amz-signature=abc&SIGNATURE=def&awsaccesskeyid=ghi"),
            "/b/k?x-amz-signature=REDACTED&SIGNATURE=REDACTED&awsaccesskeyid=REDACTED");
}

TEST(LogRedaction, KeepsEverythingElseByteForByte) {
  EXPECT_EQ(redact_target("/b/k"), "/b/k");
  EXPECT_EQ(redact_target("/b?list-type=2&prefix=a"), "/b?list-type=2&prefix=a");
  EXPECT_EQ(redact_target("/b?"), "/b?");
  EXPECT_EQ(redact_target("/b?uploads"), "/b?uploads");
  // A name without '=' carries no value to hide; empty items and values are kept as they are.
  EXPECT_EQ(redact_target("/b?Signature&&X-Amz-Signature="),
            "/b?Signature&&X-Amz-Signature=REDACTED");
  // Only whole names count.
  EXPECT_EQ(redact_target("/b?X-Amz-Signature-Extra=1&MySignature=2"),
            "/b?X-Amz-Signature-Extra=1&MySignature=2");
}

} // namespace
} // namespace s3fault::runtime
