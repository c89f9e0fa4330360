// Canonicalisation rules of SigV4 for S3: URI encoding, the canonical query, header folding,
// and the two spellings of the path the verifier accepts.
#include "conformance/s3/hashing.hpp"
#include "conformance/s3/sigv4.hpp"
#include "conformance/s3/sigv4_canonical.hpp"
#include "tests/conformance/s3/sigv4_test_support.hpp"
#include "text/text.hpp"

#include <gtest/gtest.h>

namespace s3fault::s3 {
namespace {

using testing::at;

constexpr std::string_view empty_hash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/// The line of a canonical request at `index` (0: method, 1: URI, 2: query, ...).
std::string line_of(const std::string& canonical, int index) {
  std::size_t start = 0;
  for (int i = 0; i < index; ++i) {
    start = canonical.find('\n', start) + 1;
  }
  return canonical.substr(start, canonical.find('\n', start) - start);
}

std::string canonical_of(std::string_view target, header_list headers = {{"host", "h"}}) {
  return canonical_request({"GET", std::string(target), std::move(headers)}, {"host"}, empty_hash);
}

TEST(UriEncode, KeepsUnreservedEncodesTheRestUpperCase) {
  EXPECT_EQ(uri_encode("AZaz09-._~", true), "AZaz09-._~");
  EXPECT_EQ(uri_encode("a b/c+d=e&f%g:h@i$", false), "a%20b/c%2Bd%3De%26f%25g%3Ah%40i%24");
  EXPECT_EQ(uri_encode("a/b", true), "a%2Fb");
  EXPECT_EQ(uri_encode("\xc3\xa9\x7f", true), "%C3%A9%7F");
  EXPECT_EQ(uri_encode(std::string_view("\0", 1), true), "%00");
}

TEST(UriDecode, DecodesValidEscapesOnlyAndKeepsPlus) {
  EXPECT_EQ(uri_decode("%41%2f%2F%c3%A9"), "A//\xc3\xa9");
  EXPECT_EQ(uri_decode("a+b"), "a+b");
  EXPECT_EQ(uri_decode("%zz%4%"), "%zz%4%");
  EXPECT_EQ(uri_decode("100%25"), "100%");
}

TEST(CanonicalQuery, DecodesReencodesAndSortsByNameThenValue) {
  EXPECT_EQ(line_of(canonical_of("/?b=2&a&c=x%2fy&a=1&A=z"), 2), "A=z&a=&a=1&b=2&c=x%2Fy");
  // '+' is not a space in SigV4 queries; '/' and '=' in values are encoded.
  EXPECT_EQ(line_of(canonical_of("/?prefix=a+b/c&k=v=w"), 2), "k=v%3Dw&prefix=a%2Bb%2Fc");
  // Unreserved characters sent encoded come back plain; lower-case hex becomes upper-case.
  EXPECT_EQ(line_of(canonical_of("/?x=%7E%2d%c3%a9"), 2), "x=~-%C3%A9");
  EXPECT_EQ(line_of(canonical_of("/?uploads"), 2), "uploads=");
  EXPECT_EQ(line_of(canonical_of("/?a=1&&b=2&"), 2), "a=1&b=2");
  EXPECT_EQ(line_of(canonical_of("/"), 2), "");
}

TEST(CanonicalQuery, SortsByEncodedBytes) {
  // Encoded '%2B' (0x25...) sorts before 'a' and after '-' — byte order of the encoded form.
  EXPECT_EQ(line_of(canonical_of("/?a=1&%2B=2&-=3"), 2), "%2B=2&-=3&a=1");
}

TEST(CanonicalUri, EncodesOnceAndKeepsAnAlreadyEncodedPath) {
  EXPECT_EQ(line_of(canonical_of("/b/test$file.text"), 1), "/b/test%24file.text");
  EXPECT_EQ(line_of(canonical_of("/b/a%20b/c%2Fd"), 1), "/b/a%20b/c%2Fd");
  EXPECT_EQ(line_of(canonical_of("/b/100%25"), 1), "/b/100%25");
  EXPECT_EQ(line_of(canonical_of("/b/dir//./../x"), 1), "/b/dir//./../x");
  EXPECT_EQ(line_of(canonical_of("/b/50%"), 1), "/b/50%25");
  EXPECT_EQ(line_of(canonical_of(""), 1), "/");
  EXPECT_EQ(line_of(canonical_of("?acl"), 1), "/");
}

TEST(CanonicalHeaders, TrimFoldAndJoinRepeatedHeaders) {
  const header_list headers = {{"Host", "h"},
                               {"X-Meta", "  a   b\t\tc  "},
                               {"x-META", "second"},
                               {"X-Meta", ""},
                               {"X-Empty", "   "}};
  const auto canonical =
      canonical_request({"GET", "/", headers}, {"host", "x-empty", "x-meta"}, empty_hash);
  EXPECT_EQ(canonical, "GET\n/\n\nhost:h\nx-empty:\nx-meta:a b c,second,\n\n"
                       "host;x-empty;x-meta\n" +
                           std::string(empty_hash));
}

TEST(SignRequest, SignsEveryHeaderLowerCaseSortedAndReplacesStaleAuth) {
  http_request_view request{"PUT",
                            "/b/k",
                            {{"Host", "h"},
                             {"X-Amz-Meta-Z", "z"},
                             {"Content-Type", "text/plain"},
                             {"AUTHORIZATION", "stale"},
                             {"X-Amz-Date", "19990101T000000Z"}}};
  sign_request(request, {"AK", "SK", "token"}, "eu-west-1", unsigned_payload,
               at("20240102T030405Z"));
  EXPECT_EQ(testing::header(request, "x-amz-date"), "20240102T030405Z");
  EXPECT_EQ(testing::header(request, "x-amz-content-sha256"), unsigned_payload);
  EXPECT_EQ(testing::header(request, "x-amz-security-token"), "token");
  const auto authorization = testing::header(request, "authorization");
  EXPECT_EQ(authorization.substr(0, authorization.find(", Signature=")),
            "AWS4-HMAC-SHA256 Credential=AK/20240102/eu-west-1/s3/aws4_request, "
            "SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date;x-amz-meta-z;"
            "x-amz-security-token");
  int authorization_headers = 0;
  for (const auto& header : request.headers) {
    authorization_headers += text::ascii_lower(header.first) == "authorization" ? 1 : 0;
  }
  EXPECT_EQ(authorization_headers, 1);
}

TEST(SigningKey, DerivesFromDateRegionAndService) {
  const auto key = signing_key("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "20130524", "us-east-1");
  EXPECT_EQ(key.size(), 32u);
  EXPECT_NE(key, signing_key("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "20130525", "us-east-1"));
  EXPECT_NE(key, signing_key("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "20130524", "us-east-2"));
  EXPECT_NE(
      key, signing_key("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "20130524", "us-east-1", "ec2"));
}

TEST(AmzDate, FormatsAndParsesUtc) {
  const auto time = at("20240229T235959Z");
  EXPECT_EQ(amz_date(time), "20240229T235959Z");
  EXPECT_EQ(amz_date(time + std::chrono::milliseconds(999)), "20240229T235959Z");
  EXPECT_EQ(amz_date(time + std::chrono::seconds(1)), "20240301T000000Z");
  for (const auto* bad : {"20240230T000000Z", "20240229T240000Z", "20240229 235959Z",
                          "20240229T235959", "2024022T235959Z", "2024-02-29T23:59:59Z",
                          // Found by fuzz_sigv4: years past 2262 overflowed system_clock.
                          "99991231T000000Z", "23000101T000000Z", "18991231T235959Z"}) {
    EXPECT_EQ(parse_amz_date(bad), std::nullopt) << bad;
  }
}

TEST(HttpDate, ParsesImfFixdateAndNumericZones) {
  EXPECT_EQ(parse_http_date("Fri, 24 May 2013 00:00:00 GMT"), at("20130524T000000Z"));
  EXPECT_EQ(parse_http_date("Fri, 15 Mar 2024 12:34:56 -0000"), at("20240315T123456Z"));
  EXPECT_EQ(parse_http_date("Fri, 15 Mar 2024 14:04:56 +0130"), at("20240315T123456Z"));
  EXPECT_EQ(parse_http_date("Fri, 15 Mar 2024 12:34:56 UTC"), at("20240315T123456Z"));
  for (const auto* bad : {"Fri, 15 Mar 2024 12:34:56", "Fri, 15 Foo 2024 12:34:56 GMT",
                          "Friday, 15-Mar-24 12:34:56 GMT", "Fri, 31 Feb 2024 12:34:56 GMT",
                          "Fri, 15 Mar 2024 12:34:56 EST", "20240315T123456Z"}) {
    EXPECT_EQ(parse_http_date(bad), std::nullopt) << bad;
  }
}

// --- The two spellings of the path the verifier accepts -------------------------------------

const credentials creds{"AKIDPATH", "path-secret", ""};

/// Signs like a client that chose its own canonical URI (not necessarily ours).
http_request_view signed_with_uri(std::string target, std::string_view canonical_uri) {
  http_request_view request{"GET",
                            std::move(target),
                            {{"host", "h"},
                             {"x-amz-date", "20240315T120000Z"},
                             {"x-amz-content-sha256", std::string(empty_hash)}}};
  const std::vector<std::string> names = {"host", "x-amz-content-sha256", "x-amz-date"};
  const auto query = detail::canonical_query(detail::split_target(request.target).query, false);
  const auto canonical = detail::canonical_request_for("GET", canonical_uri, query, request.headers,
                                                       names, empty_hash);
  const auto scope = detail::credential_scope("20240315", "us-east-1");
  const auto signature =
      detail::signature_hex(signing_key(creds.secret_key, "20240315", "us-east-1"),
                            detail::string_to_sign("20240315T120000Z", scope, canonical));
  request.headers.emplace_back(
      "Authorization",
      "AWS4-HMAC-SHA256 Credential=" + creds.access_key + "/" + scope +
          ", SignedHeaders=host;x-amz-content-sha256;x-amz-date, Signature=" + signature);
  return request;
}

verify_result verify(const http_request_view& request) {
  return verify_request(request, testing::only_key(creds.access_key, creds.secret_key),
                        at("20240315T120000Z"));
}

TEST(VerifyPath, AcceptsARawPathSignedAsSent) {
  // A client that sends '$' and ':' raw and signs exactly what it sent.
  EXPECT_TRUE(verify(signed_with_uri("/b/te$t:1", "/b/te$t:1")).context.has_value());
}

TEST(VerifyPath, AcceptsARawPathSignedEncodedOnce) {
  // A client that sends '$' raw but signs it encoded (the AWS PUT Object example does this).
  EXPECT_TRUE(verify(signed_with_uri("/b/te$t:1", "/b/te%24t%3A1")).context.has_value());
  // Lower-case hex on the wire, upper-case in the signature.
  EXPECT_TRUE(verify(signed_with_uri("/b/%c3%a9t%c3%a9", "/b/%C3%A9t%C3%A9")).context.has_value());
  // An unreserved character sent encoded, signed plain.
  EXPECT_TRUE(verify(signed_with_uri("/b/%7Euser", "/b/~user")).context.has_value());
}

TEST(VerifyPath, AcceptsAnEncodedSlashSignedAsSent) {
  EXPECT_TRUE(verify(signed_with_uri("/b/a%2Fb", "/b/a%2Fb")).context.has_value());
  EXPECT_TRUE(verify(signed_with_uri("/b/a%2Fb", "/b/a/b")).context.has_value());
}

TEST(VerifyPath, RefusesAPathThatIsNeitherSpelling) {
  const auto double_encoded = verify(signed_with_uri("/b/a%20b", "/b/a%2520b"));
  ASSERT_TRUE(double_encoded.error.has_value());
  EXPECT_EQ(double_encoded.error->code, "SignatureDoesNotMatch");
  const auto other_key = verify(signed_with_uri("/b/key1", "/b/key2"));
  ASSERT_TRUE(other_key.error.has_value());
  EXPECT_EQ(other_key.error->code, "SignatureDoesNotMatch");
}

} // namespace
} // namespace s3fault::s3
