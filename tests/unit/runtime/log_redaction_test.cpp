// The one redaction of logged request targets, used by the proxy's exchange log, journal and
// report, the origin's access log, and the journal's readers (summary, HAR).
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

// SigV4 percent-decodes query names before it reads them (conformance/s3 decode_query): every
// spelling it takes for a secret name is redacted like the plain one.
TEST(LogRedaction, PercentEncodedNamesAreRedactedAsSigV4DecodesThem) {
  for (const std::string name :
       {"X%2DAmz%2DSignature", "X-Amz%2dSignature", "%58-Amz-Signature", "X-Amz-Signatur%65",
        "%58%2D%41%6D%7A%2D%53%69%67%6E%61%74%75%72%65", "x%2damz%2dsignature"}) {
    EXPECT_EQ(redact_target("/b/k?" + name + "=deadbeef&x=1"), "/b/k?" + name + "=REDACTED&x=1")
        << name;
  }
  // A name that decodes to another name is not a secret name.
  EXPECT_EQ(redact_target("/b/k?X-Amz-Credential%00=AK"), "/b/k?X-Amz-Credential%00=AK");
  EXPECT_EQ(redact_target("/b/k?X%2DAmz%2DCredential=AK%2F1&X-Amz-Security%2DToken=T&"
                          "%53ignature=s&AWSAccessKey%49d=a"),
            "/b/k?X%2DAmz%2DCredential=REDACTED&X-Amz-Security%2DToken=REDACTED&"
            "%53ignature=REDACTED&AWSAccessKey%49d=REDACTED");
  // Escaped once, as SigV4 decodes: a doubly escaped name is another name to SigV4 too.
  EXPECT_EQ(redact_target("/b/k?%2558-Amz-Signature=x"), "/b/k?%2558-Amz-Signature=x");
}

TEST(LogRedaction, TheWholeValueGoesWhateverItHolds) {
  EXPECT_EQ(redact_target("/b/k?X-Amz-Security-Token=a+b%20c%2Bd%26e%3Df=g&x=1"),
            "/b/k?X-Amz-Security-Token=REDACTED&x=1");
  EXPECT_EQ(redact_target("/b/k?X-Amz-Credential=AK%2F20261129%2Fus-east-1%2Fs3%2Faws4_request"),
            "/b/k?X-Amz-Credential=REDACTED");
  // A '+' in a name is not a space to SigV4: "X-Amz+Signature" is not a secret name.
  EXPECT_EQ(redact_target("/b/k?X-Amz+Signature=x"), "/b/k?X-Amz+Signature=x");
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
