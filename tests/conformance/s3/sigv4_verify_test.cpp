// Server-side verification: every S3 error a wrong signature earns, the clock-skew and expiry
// boundaries, and the chunk-signature chain of aws-chunked bodies.
#include "conformance/s3/hashing.hpp"
#include "conformance/s3/sigv4.hpp"
#include "conformance/s3/sigv4_canonical.hpp"
#include "tests/conformance/s3/sigv4_test_support.hpp"
#include "text/text.hpp"

#include <gtest/gtest.h>

namespace s3fault::s3 {
namespace {

using namespace std::chrono_literals;
using testing::at;
using testing::header;

const credentials creds{"AKIDVERIFY", "verify/secret+key", ""};
constexpr std::string_view host = "bucket.s3.test";
const auto signed_at = at("20240315T120000Z");

http_request_view signed_get(std::string target = "/bucket/key.txt") {
  http_request_view request{"GET", std::move(target), {{"Host", std::string(host)}}};
  sign_request(request, creds, "us-east-1", sha256_hex(""), signed_at);
  return request;
}

verify_result verify(const http_request_view& request,
                     std::chrono::system_clock::time_point now = signed_at,
                     std::chrono::seconds max_skew = 15min) {
  return verify_request(request, testing::only_key(creds.access_key, creds.secret_key), now,
                        max_skew);
}

/// Asserts a failure with this code and status; prints the message on mismatch.
void expect_error(const verify_result& result, std::string_view code, unsigned status) {
  ASSERT_TRUE(result.error.has_value()) << "expected " << code << ", got success";
  EXPECT_FALSE(result.context.has_value());
  EXPECT_EQ(result.error->code, code) << result.error->message;
  EXPECT_EQ(result.error->status, status) << result.error->code;
  EXPECT_FALSE(result.error->message.empty());
}

void set_header(http_request_view& request, std::string_view name, std::string value) {
  for (auto& [header_name, header_value] : request.headers) {
    if (text::ascii_lower(header_name) == name) {
      header_value = std::move(value);
      return;
    }
  }
  request.headers.emplace_back(std::string(name), std::move(value));
}

void remove_header(http_request_view& request, std::string_view name) {
  std::erase_if(request.headers,
                [&](const auto& header) { return text::ascii_lower(header.first) == name; });
}

TEST(VerifyHeader, AcceptsASignedRequestAndReportsItsContext) {
  const auto request = signed_get();
  const auto result = verify(request);
  ASSERT_TRUE(result.context.has_value()) << result.error->message;
  const auto& context = *result.context;
  EXPECT_EQ(context.access_key, creds.access_key);
  EXPECT_EQ(context.region, "us-east-1");
  EXPECT_EQ(context.amz_date, "20240315T120000Z");
  EXPECT_EQ(context.scope, "20240315/us-east-1/s3/aws4_request");
  EXPECT_EQ(context.signing_key, signing_key(creds.secret_key, "20240315", "us-east-1"));
  EXPECT_EQ(context.seed_signature, testing::signature_of(header(request, "authorization")));
  EXPECT_EQ(context.payload_hash, sha256_hex(""));
}

TEST(VerifyHeader, AcceptsUnsignedExtraHeaders) {
  auto request = signed_get();
  request.headers.emplace_back("User-Agent", "added/after-signing");
  EXPECT_TRUE(verify(request).context.has_value());
}

TEST(VerifyHeader, NoSignatureAtAllIsAccessDenied) {
  const http_request_view request{"GET", "/bucket/key.txt", {{"Host", std::string(host)}}};
  expect_error(verify(request), "AccessDenied", 403);
}

TEST(VerifyHeader, UnknownAccessKeyIsInvalidAccessKeyId) {
  http_request_view request{"GET", "/bucket/key.txt", {{"Host", std::string(host)}}};
  sign_request(request, {"AKIDUNKNOWN", creds.secret_key, ""}, "us-east-1", sha256_hex(""),
               signed_at);
  expect_error(verify(request), "InvalidAccessKeyId", 403);
}

TEST(VerifyHeader, WrongSecretIsSignatureDoesNotMatch) {
  http_request_view request{"GET", "/bucket/key.txt", {{"Host", std::string(host)}}};
  sign_request(request, {creds.access_key, "another-secret", ""}, "us-east-1", sha256_hex(""),
               signed_at);
  expect_error(verify(request), "SignatureDoesNotMatch", 403);
}

TEST(VerifyHeader, AnyChangeToWhatWasSignedIsSignatureDoesNotMatch) {
  const auto original = signed_get("/bucket/key.txt?versionId=v1");
  const auto changed = [&](auto change) {
    auto request = original;
    change(request);
    return verify(request);
  };
  expect_error(changed([](auto& r) { r.method = "DELETE"; }), "SignatureDoesNotMatch", 403);
  expect_error(changed([](auto& r) { r.target = "/bucket/key.txu?versionId=v1"; }),
               "SignatureDoesNotMatch", 403);
  expect_error(changed([](auto& r) { r.target = "/bucket/key.txt?versionId=v2"; }),
               "SignatureDoesNotMatch", 403);
  expect_error(changed([](auto& r) { r.target += "&acl"; }), "SignatureDoesNotMatch", 403);
  expect_error(changed([](auto& r) { set_header(r, "host", "other.s3.test"); }),
               "SignatureDoesNotMatch", 403);
  expect_error(changed([](auto& r) { set_header(r, "x-amz-content-sha256", sha256_hex("x")); }),
               "SignatureDoesNotMatch", 403);
  expect_error(changed([](auto& r) { r.headers.emplace_back("host", "second.s3.test"); }),
               "SignatureDoesNotMatch", 403);
  expect_error(changed([](auto& r) {
                 auto authorization = header(r, "authorization");
                 testing::flip_byte(authorization, authorization.size() - 1);
                 set_header(r, "authorization", authorization);
               }),
               "SignatureDoesNotMatch", 403);
  expect_error(changed([](auto& r) {
                 auto authorization = header(r, "authorization");
                 set_header(r, "authorization", authorization.substr(0, authorization.size() - 2));
               }),
               "SignatureDoesNotMatch", 403);
}

TEST(VerifyHeader, ClockSkewBoundariesAreInclusive) {
  const auto request = signed_get();
  EXPECT_TRUE(verify(request, signed_at + 15min).context.has_value());
  EXPECT_TRUE(verify(request, signed_at - 15min).context.has_value());
  expect_error(verify(request, signed_at + 15min + 1s), "RequestTimeTooSkewed", 403);
  expect_error(verify(request, signed_at - 15min - 1s), "RequestTimeTooSkewed", 403);
  // A custom bound.
  EXPECT_TRUE(verify(request, signed_at + 60s, 60s).context.has_value());
  expect_error(verify(request, signed_at + 61s, 60s), "RequestTimeTooSkewed", 403);
}

TEST(VerifyHeader, MissingOrUnreadableDateIsAccessDenied) {
  auto request = signed_get();
  remove_header(request, "x-amz-date");
  expect_error(verify(request), "AccessDenied", 403);
  request = signed_get();
  set_header(request, "x-amz-date", "2024-03-15T12:00:00Z");
  expect_error(verify(request), "AccessDenied", 403);
}

/// Signs with only a Date header (no x-amz-date), as botocore does when the caller sets Date,
/// using the public building blocks.
http_request_view signed_with_date_header(std::string date) {
  http_request_view request{"GET",
                            "/bucket/key.txt",
                            {{"Host", std::string(host)},
                             {"Date", std::move(date)},
                             {"x-amz-content-sha256", sha256_hex("")}}};
  const auto canonical =
      canonical_request(request, {"date", "host", "x-amz-content-sha256"}, sha256_hex(""));
  const std::string scope = "20240315/us-east-1/s3/aws4_request";
  const auto string_to_sign =
      "AWS4-HMAC-SHA256\n20240315T120000Z\n" + scope + "\n" + sha256_hex(canonical);
  const auto signature = to_hex(
      hmac_sha256_raw(signing_key(creds.secret_key, "20240315", "us-east-1"), string_to_sign));
  request.headers.emplace_back(
      "Authorization",
      "AWS4-HMAC-SHA256 Credential=" + creds.access_key + "/" + scope +
          ", SignedHeaders=date;host;x-amz-content-sha256, Signature=" + signature);
  return request;
}

TEST(VerifyHeader, DateHeaderStandsInForXAmzDate) {
  const auto request = signed_with_date_header("Fri, 15 Mar 2024 12:00:00 GMT");
  const auto result = verify(request);
  ASSERT_TRUE(result.context.has_value()) << result.error->message;
  EXPECT_EQ(result.context->amz_date, "20240315T120000Z");
  expect_error(verify(request, signed_at + 16min), "RequestTimeTooSkewed", 403);
}

TEST(VerifyHeader, CredentialDateMustMatchTheRequestDate) {
  // Signed on the 15th, but the credential scope names the 14th.
  auto request = signed_get();
  auto authorization = header(request, "authorization");
  authorization.replace(authorization.find("/20240315/"), 10, "/20240314/");
  set_header(request, "authorization", authorization);
  expect_error(verify(request), "AuthorizationHeaderMalformed", 400);

  const auto with_date = signed_with_date_header("Sat, 16 Mar 2024 00:00:01 GMT");
  expect_error(verify(with_date, at("20240316T000001Z")), "AuthorizationHeaderMalformed", 400);
}

TEST(VerifyHeader, MalformedAuthorizationHeaders) {
  const std::string credential = "Credential=AKIDVERIFY/20240315/us-east-1/s3/aws4_request";
  const std::string signature =
      "Signature=0000000000000000000000000000000000000000000000000000000000000000";
  const std::string signed_headers = "SignedHeaders=host;x-amz-content-sha256;x-amz-date";
  const std::vector<std::string> malformed = {
      "AWS4-HMAC-SHA256 " + credential + ", " + signed_headers,
      "AWS4-HMAC-SHA256 " + signed_headers + ", " + signature,
      "AWS4-HMAC-SHA256 " + credential + ", " + signature,
      "AWS4-HMAC-SHA256",
      "AWS4-HMAC-SHA256 " + credential + " " + signed_headers + " " + signature,
      "AWS4-HMAC-SHA256 " + credential + ", " + credential + ", " + signed_headers + ", " +
          signature,
      "AWS4-HMAC-SHA256 Credential=AKIDVERIFY/20240315/us-east-1/s3, " + signed_headers + ", " +
          signature,
      "AWS4-HMAC-SHA256 Credential=AKIDVERIFY/20240315/us-east-1/ec2/aws4_request, " +
          signed_headers + ", " + signature,
      "AWS4-HMAC-SHA256 Credential=AKIDVERIFY/2024031/us-east-1/s3/aws4_request, " +
          signed_headers + ", " + signature,
      "AWS4-HMAC-SHA256 Credential=AKIDVERIFY/20240315/us-east-1/s3/aws5_request, " +
          signed_headers + ", " + signature,
      "AWS4-HMAC-SHA256 " + credential + ", SignedHeaders=x-amz-content-sha256;x-amz-date, " +
          signature,
      "AWS4-HMAC-SHA256 " + credential + ", SignedHeaders=host;x-amz-content-sha256, " + signature,
  };
  for (const auto& authorization : malformed) {
    auto request = signed_get();
    set_header(request, "authorization", authorization);
    SCOPED_TRACE(authorization);
    expect_error(verify(request), "AuthorizationHeaderMalformed", 400);
  }
}

TEST(VerifyHeader, OtherAuthorizationSchemesAreRefused) {
  auto request = signed_get();
  set_header(request, "authorization", "AWS AKIDVERIFY:frJIUN8DYpKDtOLCwo//yllqDzg=");
  expect_error(verify(request), "InvalidRequest", 400);
  set_header(request, "authorization", "Bearer token");
  expect_error(verify(request), "InvalidArgument", 400);
}

TEST(VerifyHeader, PayloadHashHeaderIsRequiredAndWellFormed) {
  auto request = signed_get();
  remove_header(request, "x-amz-content-sha256");
  expect_error(verify(request), "InvalidRequest", 400);
  request = signed_get();
  set_header(request, "x-amz-content-sha256", "not-a-hash");
  expect_error(verify(request), "InvalidArgument", 400);
}

TEST(VerifyHeader, HeaderAndQuerySignaturesTogetherAreRefused) {
  auto request = signed_get();
  request.target =
      presign_target("GET", host, "/bucket/key.txt", creds, "us-east-1", 60s, signed_at);
  expect_error(verify(request), "InvalidArgument", 400);
}

TEST(VerifyHeader, SessionTokenIsSignedAndRequired) {
  http_request_view request{"GET", "/bucket/key.txt", {{"Host", std::string(host)}}};
  sign_request(request, {creds.access_key, creds.secret_key, "session-token"}, "us-east-1",
               unsigned_payload, signed_at);
  EXPECT_EQ(header(request, "x-amz-security-token"), "session-token");
  ASSERT_TRUE(verify(request).context.has_value());
  set_header(request, "x-amz-security-token", "session-tokeN");
  expect_error(verify(request), "SignatureDoesNotMatch", 403);
}

// --- Presigned URLs ----------------------------------------------------------------------------

http_request_view presigned(std::chrono::seconds expires, std::string target = "/bucket/key.txt",
                            const credentials& signer = creds) {
  return {"GET",
          presign_target("GET", host, target, signer, "us-east-1", expires, signed_at),
          {{"Host", std::string(host)}}};
}

TEST(VerifyPresigned, AcceptsAndReportsUnsignedPayload) {
  const auto request = presigned(3600s);
  const auto result = verify(request);
  ASSERT_TRUE(result.context.has_value()) << result.error->message;
  EXPECT_EQ(result.context->payload_hash, unsigned_payload);
  EXPECT_EQ(result.context->seed_signature,
            request.target.substr(request.target.rfind("X-Amz-Signature=") + 16));
}

TEST(VerifyPresigned, AnUnsignedPayloadHashHeaderAddedByTheCallerIsTolerated) {
  auto request = presigned(3600s);
  request.headers.emplace_back("x-amz-content-sha256", sha256_hex("body"));
  const auto result = verify(request);
  ASSERT_TRUE(result.context.has_value()) << result.error->message;
  EXPECT_EQ(result.context->payload_hash, unsigned_payload);
}

TEST(VerifyPresigned, ExpiresAtTheLastSecondNotBefore) {
  const auto request = presigned(3600s);
  EXPECT_TRUE(verify(request, signed_at + 3600s).context.has_value());
  const auto expired = verify(request, signed_at + 3601s);
  expect_error(expired, "AccessDenied", 403);
  EXPECT_EQ(expired.error->message, "Request has expired");
  // Expiry is its own bound: a long-lived URL is fine long after max_skew.
  EXPECT_TRUE(verify(presigned(604800s), signed_at + 604800s).context.has_value());
  expect_error(verify(presigned(604800s), signed_at + 604801s), "AccessDenied", 403);
}

TEST(VerifyPresigned, ExpiresLongerThanAWeekIsRefused) {
  EXPECT_TRUE(verify(presigned(604800s)).context.has_value());
  expect_error(verify(presigned(604801s)), "AuthorizationQueryParametersError", 400);
}

TEST(VerifyPresigned, DatedInTheFutureBeyondTheSkewIsRefused) {
  const auto request = presigned(3600s);
  EXPECT_TRUE(verify(request, signed_at - 15min).context.has_value());
  expect_error(verify(request, signed_at - 15min - 1s), "AccessDenied", 403);
}

TEST(VerifyPresigned, UnknownKeyAndTamperingAreRefused) {
  expect_error(verify(presigned(60s, "/bucket/key.txt", {"AKIDOTHER", creds.secret_key, ""})),
               "InvalidAccessKeyId", 403);
  auto request = presigned(60s);
  testing::flip_byte(request.target, request.target.size() - 1);
  expect_error(verify(request), "SignatureDoesNotMatch", 403);
  request = presigned(60s);
  request.target.replace(request.target.find("key.txt"), 7, "key.txu");
  expect_error(verify(request), "SignatureDoesNotMatch", 403);
  request = presigned(60s);
  request.target.replace(request.target.find("X-Amz-Expires=60"), 16, "X-Amz-Expires=61");
  expect_error(verify(request), "SignatureDoesNotMatch", 403);
  request = presigned(60s);
  request.target += "&extra=1";
  expect_error(verify(request), "SignatureDoesNotMatch", 403);
  request = presigned(60s);
  set_header(request, "host", "evil.s3.test");
  expect_error(verify(request), "SignatureDoesNotMatch", 403);
}

TEST(VerifyPresigned, MissingOrBadParametersAreAuthorizationQueryParametersError) {
  const auto without = [](std::string_view name) {
    auto request = presigned(60s);
    const auto start = request.target.find(std::string(name) + "=");
    const auto end = request.target.find('&', start);
    request.target.erase(start, end == std::string::npos ? std::string::npos : end - start + 1);
    return request;
  };
  for (const auto* name : {"X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires",
                           "X-Amz-SignedHeaders", "X-Amz-Signature"}) {
    SCOPED_TRACE(name);
    expect_error(verify(without(name)), "AuthorizationQueryParametersError", 400);
  }
  const auto replaced = [](std::string_view from, std::string_view to) {
    auto request = presigned(60s);
    request.target.replace(request.target.find(from), from.size(), to);
    return request;
  };
  expect_error(verify(replaced("AWS4-HMAC-SHA256", "AWS4-HMAC-SHA512")),
               "AuthorizationQueryParametersError", 400);
  expect_error(verify(replaced("X-Amz-Expires=60", "X-Amz-Expires=-1")),
               "AuthorizationQueryParametersError", 400);
  expect_error(verify(replaced("X-Amz-Expires=60", "X-Amz-Expires=1h")),
               "AuthorizationQueryParametersError", 400);
  expect_error(verify(replaced("X-Amz-Date=20240315T120000Z", "X-Amz-Date=20240315")),
               "AuthorizationQueryParametersError", 400);
  expect_error(verify(replaced("%2F20240315%2F", "%2F20240314%2F")),
               "AuthorizationQueryParametersError", 400);
  expect_error(verify(replaced("X-Amz-SignedHeaders=host", "X-Amz-SignedHeaders=range")),
               "AuthorizationQueryParametersError", 400);
}

// --- aws-chunked signatures --------------------------------------------------------------------

TEST(ChunkSignatures, ClientAndServerAgreeAndTheChainBindsOrderAndContent) {
  http_request_view request{"PUT",
                            "/bucket/big.bin",
                            {{"Host", std::string(host)},
                             {"Content-Encoding", "aws-chunked"},
                             {"x-amz-decoded-content-length", "12"}}};
  sign_request(request, creds, "us-east-1", streaming_signed_payload, signed_at);
  const auto verified = verify(request);
  ASSERT_TRUE(verified.context.has_value()) << verified.error->message;
  const auto& server = *verified.context;
  EXPECT_EQ(server.payload_hash, streaming_signed_payload);

  // The client builds the same context from its own credentials.
  signing_context client = server;
  client.signing_key = signing_key(creds.secret_key, "20240315", "us-east-1");

  const auto first = chunk_signature(client, server.seed_signature, "chunk-one!");
  const auto second = chunk_signature(client, first, "12");
  const auto last = chunk_signature(client, second, "");
  EXPECT_EQ(chunk_signature(server, server.seed_signature, "chunk-one!"), first);
  EXPECT_EQ(chunk_signature(server, first, "12"), second);
  EXPECT_EQ(chunk_signature(server, second, ""), last);

  // Each signature depends on the data, on its place in the chain and on the key.
  EXPECT_NE(chunk_signature(server, server.seed_signature, "chunk-one?"), first);
  EXPECT_NE(chunk_signature(server, server.seed_signature, "12"), second);
  EXPECT_NE(chunk_signature(server, first, ""), last);
  signing_context wrong_key = server;
  wrong_key.signing_key = signing_key("other", "20240315", "us-east-1");
  EXPECT_NE(chunk_signature(wrong_key, server.seed_signature, "chunk-one!"), first);
  EXPECT_EQ(first.size(), 64u);

  const std::string trailer = "x-amz-checksum-crc32:" + std::string("AAAAAA==") + "\n";
  const auto trailer_sig = trailer_signature(server, last, trailer);
  EXPECT_EQ(trailer_signature(client, last, trailer), trailer_sig);
  EXPECT_NE(trailer_signature(server, last, "x-amz-checksum-crc32:AAAAAB==\n"), trailer_sig);
  EXPECT_NE(trailer_signature(server, second, trailer), trailer_sig);
}

} // namespace
} // namespace s3fault::s3
