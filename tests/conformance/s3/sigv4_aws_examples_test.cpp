// The worked examples AWS publishes for SigV4 on S3, with the signatures exactly as published.
//
// Sources (Amazon S3 API Reference, "Authenticating Requests (AWS Signature Version 4)"):
//  - sig-v4-header-based-auth.html, "Signature Calculations for the Authorization Header:
//    Transferring Payload in a Single Chunk": GET Object (Range), PUT Object, GET Bucket
//    Lifecycle, Get Bucket (List Objects).
//  - sigv4-query-string-auth.html, "Authenticating Requests: Using Query Parameters": the
//    presigned GET of test.txt.
//  - sigv4-streaming.html, "Transferring Payload in Multiple Chunks (Chunked Upload)": the
//    seed and chunk signatures of a 66560-byte upload.
//  - sigv4-streaming-trailers.html, "Signature calculations for trailing headers": the chunk
//    and trailer signatures of the same upload with a CRC32C trailer.
// All use access key AKIAIOSFODNN7EXAMPLE, secret wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY,
// 20130524T000000Z and us-east-1.
#include "conformance/s3/hashing.hpp"
#include "conformance/s3/sigv4.hpp"
#include "tests/conformance/s3/sigv4_test_support.hpp"

#include <gtest/gtest.h>

#include <array>
#include <set>
#include <vector>

namespace s3fault::s3 {
namespace {

using testing::at;
using testing::header;
using testing::signature_of;

const credentials example_creds{"AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                                ""};
constexpr std::string_view example_host = "examplebucket.s3.amazonaws.com";
constexpr std::string_view empty_hash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
const std::string example_scope = "AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request";

std::string authorization(std::string_view signed_headers, std::string_view signature) {
  return "AWS4-HMAC-SHA256 Credential=" + example_scope +
         ", SignedHeaders=" + std::string(signed_headers) + ", Signature=" + std::string(signature);
}

verify_result verify_at_example_time(const http_request_view& request) {
  return verify_request(request,
                        testing::only_key(example_creds.access_key, example_creds.secret_key),
                        at("20130524T000000Z"));
}

TEST(AwsExamples, GetObjectWithRange) {
  http_request_view request{
      "GET", "/test.txt", {{"Host", std::string(example_host)}, {"Range", "bytes=0-9"}}};
  sign_request(request, example_creds, "us-east-1", empty_hash, at("20130524T000000Z"));

  // The canonical request as the example prints it, and its hash in the string to sign.
  const auto canonical = canonical_request(
      request, {"host", "range", "x-amz-content-sha256", "x-amz-date"}, empty_hash);
  EXPECT_EQ(canonical, "GET\n/test.txt\n\nhost:examplebucket.s3.amazonaws.com\n"
                       "range:bytes=0-9\n"
                       "x-amz-content-sha256:" +
                           std::string(empty_hash) +
                           "\nx-amz-date:20130524T000000Z\n\n"
                           "host;range;x-amz-content-sha256;x-amz-date\n" +
                           std::string(empty_hash));
  EXPECT_EQ(sha256_hex(canonical),
            "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972");
  EXPECT_EQ(header(request, "authorization"),
            authorization("host;range;x-amz-content-sha256;x-amz-date",
                          "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41"));
  EXPECT_EQ(header(request, "x-amz-date"), "20130524T000000Z");
}

TEST(AwsExamples, PutObjectWithDollarInKeyAndDateHeader) {
  const std::string body = "Welcome to Amazon S3.";
  // '$' is legal in a URL path and sent as is; the canonical URI encodes it (%24).
  http_request_view request{"PUT",
                            "/test$file.text",
                            {{"Host", std::string(example_host)},
                             {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
                             {"x-amz-storage-class", "REDUCED_REDUNDANCY"}}};
  sign_request(request, example_creds, "us-east-1", sha256_hex(body), at("20130524T000000Z"));
  EXPECT_EQ(signature_of(header(request, "authorization")),
            "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd");
  EXPECT_NE(
      header(request, "authorization")
          .find("SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class"),
      std::string::npos);
}

TEST(AwsExamples, GetBucketLifecycleBareSubresource) {
  http_request_view request{"GET", "/?lifecycle", {{"Host", std::string(example_host)}}};
  sign_request(request, example_creds, "us-east-1", empty_hash, at("20130524T000000Z"));
  EXPECT_EQ(header(request, "authorization"),
            authorization("host;x-amz-content-sha256;x-amz-date",
                          "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543"));
}

TEST(AwsExamples, GetBucketListObjectsSortsTheQuery) {
  // Sent in the reverse order: the canonical query is sorted.
  http_request_view request{"GET", "/?prefix=J&max-keys=2", {{"Host", std::string(example_host)}}};
  sign_request(request, example_creds, "us-east-1", empty_hash, at("20130524T000000Z"));
  EXPECT_EQ(header(request, "authorization"),
            authorization("host;x-amz-content-sha256;x-amz-date",
                          "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"));
}

TEST(AwsExamples, VerifierAcceptsThePublishedSignedRequests) {
  // The requests exactly as the examples print them after signing: no space after the commas.
  const auto published = [](std::string_view signed_headers, std::string_view signature) {
    return "AWS4-HMAC-SHA256 Credential=" + example_scope +
           ",SignedHeaders=" + std::string(signed_headers) + ",Signature=" + std::string(signature);
  };
  const std::vector<http_request_view> requests = {
      {"GET",
       "/test.txt",
       {{"Host", std::string(example_host)},
        {"Range", "bytes=0-9"},
        {"x-amz-content-sha256", std::string(empty_hash)},
        {"x-amz-date", "20130524T000000Z"},
        {"Authorization",
         published("host;range;x-amz-content-sha256;x-amz-date",
                   "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")}}},
      {"PUT",
       "/test$file.text",
       {{"Host", std::string(example_host)},
        {"Date", "Fri, 24 May 2013 00:00:00 GMT"},
        {"x-amz-date", "20130524T000000Z"},
        {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
        {"x-amz-content-sha256", sha256_hex("Welcome to Amazon S3.")},
        {"Authorization",
         published("date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class",
                   "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")}}},
      {"GET",
       "/?lifecycle",
       {{"Host", std::string(example_host)},
        {"x-amz-date", "20130524T000000Z"},
        {"x-amz-content-sha256", std::string(empty_hash)},
        {"Authorization",
         published("host;x-amz-content-sha256;x-amz-date",
                   "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")}}},
      {"GET",
       "/?max-keys=2&prefix=J",
       {{"Host", std::string(example_host)},
        {"x-amz-date", "20130524T000000Z"},
        {"x-amz-content-sha256", std::string(empty_hash)},
        {"Authorization",
         published("host;x-amz-content-sha256;x-amz-date",
                   "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")}}},
  };
  for (const auto& request : requests) {
    const auto result = verify_at_example_time(request);
    ASSERT_TRUE(result.context.has_value())
        << request.target << ": " << (result.error ? result.error->code : "");
    EXPECT_EQ(result.context->seed_signature, signature_of(header(request, "authorization")));
    EXPECT_EQ(result.context->scope, "20130524/us-east-1/s3/aws4_request");
  }
}

TEST(AwsExamples, PresignedGetObject) {
  const auto target = presign_target("GET", example_host, "/test.txt", example_creds, "us-east-1",
                                     std::chrono::seconds(86400), at("20130524T000000Z"));
  EXPECT_EQ(target, "/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                    "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_"
                    "request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400"
                    "&X-Amz-SignedHeaders=host"
                    "&X-Amz-Signature="
                    "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");

  const http_request_view request{"GET", target, {{"Host", std::string(example_host)}}};
  const auto result = verify_at_example_time(request);
  ASSERT_TRUE(result.context.has_value()) << (result.error ? result.error->message : "");
  EXPECT_EQ(result.context->payload_hash, unsigned_payload);
  EXPECT_EQ(result.context->seed_signature,
            "aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404");
}

/// The chunked upload of the streaming example: PUT /examplebucket/chunkObject.txt, 66560 bytes
/// of 'a' in chunks of 65536, 1024 and 0 bytes.
http_request_view streaming_example_request() {
  http_request_view request{"PUT",
                            "/examplebucket/chunkObject.txt",
                            {{"Host", "s3.amazonaws.com"},
                             {"x-amz-storage-class", "REDUCED_REDUNDANCY"},
                             {"Content-Encoding", "aws-chunked"},
                             {"x-amz-decoded-content-length", "66560"},
                             {"Content-Length", "66824"}}};
  sign_request(request, example_creds, "us-east-1", streaming_signed_payload,
               at("20130524T000000Z"));
  return request;
}

TEST(AwsExamples, StreamingUploadSeedSignature) {
  const auto request = streaming_example_request();
  EXPECT_EQ(header(request, "authorization"),
            authorization("content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;"
                          "x-amz-decoded-content-length;x-amz-storage-class",
                          "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"));
}

TEST(AwsExamples, StreamingUploadChunkSignaturesFromTheVerifiedContext) {
  const auto verified = verify_at_example_time(streaming_example_request());
  ASSERT_TRUE(verified.context.has_value());
  const auto& context = *verified.context;
  EXPECT_EQ(context.payload_hash, streaming_signed_payload);
  EXPECT_EQ(context.seed_signature,
            "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9");

  const auto first = chunk_signature(context, context.seed_signature, std::string(65536, 'a'));
  EXPECT_EQ(first, "ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648");
  const auto second = chunk_signature(context, first, std::string(1024, 'a'));
  EXPECT_EQ(second, "0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497");
  const auto last = chunk_signature(context, second, "");
  EXPECT_EQ(last, "b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9");
}

TEST(AwsExamples, StreamingUploadWithSignedTrailer) {
  // The trailer example publishes its seed signature; the chain is checked from there.
  signing_context context;
  context.access_key = example_creds.access_key;
  context.region = "us-east-1";
  context.amz_date = "20130524T000000Z";
  context.scope = "20130524/us-east-1/s3/aws4_request";
  context.signing_key = signing_key(example_creds.secret_key, "20130524", "us-east-1");
  context.seed_signature = "106e2a8a18243abcf37539882f36619c00e2dfc72633413f02d3b74544bfeb8e";
  context.payload_hash = streaming_signed_payload_trailer;

  const auto first = chunk_signature(context, context.seed_signature, std::string(65536, 'a'));
  EXPECT_EQ(first, "b474d8862b1487a5145d686f57f013e54db672cee1c953b3010fb58501ef5aa2");
  const auto second = chunk_signature(context, first, std::string(1024, 'a'));
  EXPECT_EQ(second, "1c1344b170168f8e65b41376b44b20fe354e373826ccbbe2c1d40a8cae51e5c7");
  const auto last = chunk_signature(context, second, "");
  EXPECT_EQ(last, "2ca2aba2005185cf7159c6277faf83795951dd77a3a99e6e65d5c9f85863f992");
  EXPECT_EQ(trailer_signature(context, last, "x-amz-checksum-crc32c:sOO8/Q==\n"),
            "d81f82fc3505edab99d459891051a732e8730629a2e4a59689829ca17fe2e435");
}

TEST(AwsExamples, TheSigningKeyFollowsEachInputNotTheLastKeyDerived) {
  // signing_key keeps the last key per thread: each input must still lead to its own key.
  auto derived = [](std::string_view secret, std::string_view date, std::string_view region,
                    std::string_view service) {
    const auto date_key = hmac_sha256_raw("AWS4" + std::string(secret), date);
    return hmac_sha256_raw(hmac_sha256_raw(hmac_sha256_raw(date_key, region), service),
                           "aws4_request");
  };
  const std::vector<std::array<std::string_view, 4>> inputs{
      {"secret-a", "20130524", "us-east-1", "s3"},  {"secret-b", "20130524", "us-east-1", "s3"},
      {"secret-b", "20130525", "us-east-1", "s3"},  {"secret-b", "20130525", "eu-west-1", "s3"},
      {"secret-b", "20130525", "eu-west-1", "sts"}, {"secret-a", "20130524", "us-east-1", "s3"}};
  std::set<std::string> keys;
  for (const auto& [secret, date, region, service] : inputs) {
    const auto key = signing_key(secret, date, region, service);
    EXPECT_EQ(to_hex(key), to_hex(derived(secret, date, region, service)))
        << secret << " " << date << " " << region << " " << service;
    EXPECT_EQ(signing_key(secret, date, region, service), key); // asked again: the kept key
    keys.insert(key);
  }
  EXPECT_EQ(keys.size(), 5u); // the last input repeats the first
}

} // namespace
} // namespace s3fault::s3
