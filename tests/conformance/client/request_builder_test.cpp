// Request building: S3 URI encoding, addressing styles, Host, Content-Length, and signatures
// that the project's own SigV4 verifier accepts.
#include "conformance/client/request_builder.hpp"
#include "conformance/s3/hashing.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace s3fault::client {
namespace {

using namespace std::chrono_literals;

const auto fixed_time = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));

request_settings signed_settings(std::string url = "http://127.0.0.1:9000") {
  request_settings settings;
  settings.target = endpoint::parse(url);
  settings.region = "eu-west-3";
  settings.credentials = s3::credentials{"AKID", "SECRET", ""};
  return settings;
}

std::optional<std::string> lookup_secret(std::string_view access_key) {
  if (access_key == "AKID") {
    return std::string("SECRET");
  }
  return std::nullopt;
}

bool verifies(const s3::http_request_view& wire) {
  const auto result = s3::verify_request(wire, lookup_secret, fixed_time);
  if (result.error) {
    ADD_FAILURE() << result.error->code << ": " << result.error->message;
  }
  return result.context.has_value();
}

TEST(EncodePath, PathStyleKeepsSlashesAndEncodesEverythingElse) {
  EXPECT_EQ(encode_path(addressing_style::path, "bucket", "dir/a b+c~d_e-f.g"),
            "/bucket/dir/a%20b%2Bc~d_e-f.g");
  EXPECT_EQ(encode_path(addressing_style::path, "bucket", "caf\xc3\xa9%?#&=*"),
            "/bucket/caf%C3%A9%25%3F%23%26%3D%2A");
  EXPECT_EQ(encode_path(addressing_style::path, "bucket", "/leading//double"),
            "/bucket//leading//double");
  EXPECT_EQ(encode_path(addressing_style::path, "bucket", ""), "/bucket");
  EXPECT_EQ(encode_path(addressing_style::path, "", ""), "/");
}

TEST(EncodePath, VirtualHostStyleLeavesTheBucketOutOfThePath) {
  EXPECT_EQ(encode_path(addressing_style::virtual_host, "bucket", "a b"), "/a%20b");
  EXPECT_EQ(encode_path(addressing_style::virtual_host, "bucket", ""), "/");
}

TEST(EncodeQuery, KeepsOrderEncodesStrictlyAndSupportsFlags) {
  const query_list query = {{"uploads", std::nullopt},
                            {"prefix", "a/b c"},
                            {"empty", ""},
                            {"response-content-type", "text/plain; charset=utf-8"}};
  EXPECT_EQ(
      encode_query(query),
      "uploads&prefix=a%2Fb%20c&empty=&response-content-type=text%2Fplain%3B%20charset%3Dutf-8");
  EXPECT_EQ(encode_query({}), "");
}

TEST(HostFor, LeavesDefaultPortsOutAndPrefixesVirtualHosts) {
  request_settings settings;
  settings.target = endpoint::parse("http://127.0.0.1:9000");
  EXPECT_EQ(host_for(settings, "b"), "127.0.0.1:9000");
  settings.style = addressing_style::virtual_host;
  EXPECT_EQ(host_for(settings, "b"), "b.127.0.0.1:9000");
  EXPECT_EQ(host_for(settings, ""), "127.0.0.1:9000");
  settings.target = endpoint::parse("https://s3.example.com");
  EXPECT_EQ(host_for(settings, "b"), "b.s3.example.com");
  settings.target = endpoint::parse("http://[::1]:80");
  settings.style = addressing_style::path;
  EXPECT_EQ(host_for(settings, "b"), "[::1]");
}

TEST(BuildRequest, AnonymousRequestsAreNotSigned) {
  request_settings settings;
  settings.target = endpoint::parse("http://127.0.0.1:9000");
  s3_request request;
  request.bucket = "b";
  request.key = "k";
  request.query = {{"partNumber", "2"}};
  request.headers = {{"Range", "bytes=0-9"}};
  const auto built = build_request(request, settings, fixed_time);
  ASSERT_TRUE(built.error.empty());
  EXPECT_EQ(built.wire.method, "GET");
  EXPECT_EQ(built.wire.target, "/b/k?partNumber=2");
  const header_list expected = {{"Host", "127.0.0.1:9000"}, {"Range", "bytes=0-9"}};
  EXPECT_EQ(built.wire.headers, expected);
}

TEST(BuildRequest, PutAndDeleteWithoutBodyGetContentLengthZero) {
  request_settings settings;
  settings.target = endpoint::parse("http://127.0.0.1:9000");
  s3_request request;
  request.method = "PUT";
  request.bucket = "b";
  const auto built = build_request(request, settings, fixed_time);
  EXPECT_EQ(find_header(built.wire.headers, "content-length"), "0");
  request.method = "DELETE"; // as the AWS SDKs send it (Swift waits for a body otherwise)
  EXPECT_EQ(
      find_header(build_request(request, settings, fixed_time).wire.headers, "content-length"),
      "0");
  request.method = "GET";
  EXPECT_FALSE(
      find_header(build_request(request, settings, fixed_time).wire.headers, "content-length"));
}

TEST(BuildRequest, SignsMemoryBodiesWithTheirHash) {
  s3_request request;
  request.method = "PUT";
  request.bucket = "b";
  request.key = "dir/a b";
  request.headers = {{"Content-Type", "text/plain"}};
  request.body = body_source::from_string("hello");
  const auto built = build_request(request, signed_settings(), fixed_time);
  ASSERT_TRUE(built.error.empty());
  const auto& headers = built.wire.headers;
  EXPECT_EQ(headers.front().first, "Host");
  EXPECT_EQ(find_header(headers, "Content-Length"), "5");
  EXPECT_EQ(find_header(headers, "x-amz-content-sha256"), s3::sha256_hex("hello"));
  EXPECT_EQ(find_header(headers, "x-amz-date"), "20231114T221320Z");
  const auto authorization = find_header(headers, "Authorization");
  ASSERT_TRUE(authorization);
  EXPECT_NE(authorization->find("Credential=AKID/20231114/eu-west-3/s3/aws4_request"),
            std::string::npos)
      << *authorization;
  EXPECT_TRUE(verifies(built.wire));
}

TEST(BuildRequest, SignedRequestsVerifyWithOddKeysAndQueries) {
  s3_request request;
  request.bucket = "b";
  request.key = "weird key/+~%?&=\xc3\xa9";
  request.query = {{"uploads", std::nullopt}, {"prefix", "a b/c"}, {"x", ""}};
  EXPECT_TRUE(verifies(build_request(request, signed_settings(), fixed_time).wire));
  auto vhost = signed_settings();
  vhost.style = addressing_style::virtual_host;
  const auto built = build_request(request, vhost, fixed_time);
  EXPECT_EQ(find_header(built.wire.headers, "host"), "b.127.0.0.1:9000");
  EXPECT_TRUE(verifies(built.wire));
}

TEST(BuildRequest, FileBodiesAreUnsignedPayloadWithTheirLength) {
  const std::string path = testing::TempDir() + "s3fault_builder_" + std::to_string(::getpid());
  std::ofstream(path, std::ios::binary) << std::string(1000, 'x');
  s3_request request;
  request.method = "PUT";
  request.bucket = "b";
  request.key = "k";
  request.body = body_source::from_file(path, 100, 250);
  const auto built = build_request(request, signed_settings(), fixed_time);
  ASSERT_TRUE(built.error.empty()) << built.error;
  EXPECT_EQ(find_header(built.wire.headers, "Content-Length"), "250");
  EXPECT_EQ(find_header(built.wire.headers, "x-amz-content-sha256"), s3::unsigned_payload);
  EXPECT_TRUE(verifies(built.wire));

  request.body = body_source::from_file(path, 900, 250);
  EXPECT_FALSE(build_request(request, signed_settings(), fixed_time).error.empty());
  std::remove(path.c_str());
}

TEST(BuildRequest, UnsignedPayloadOnRequestAndGivenPayloadHashKept) {
  s3_request request;
  request.method = "PUT";
  request.bucket = "b";
  request.key = "k";
  request.body = body_source::from_string("data");
  request.payload = payload_signing::unsigned_payload;
  auto built = build_request(request, signed_settings(), fixed_time);
  EXPECT_EQ(find_header(built.wire.headers, "x-amz-content-sha256"), s3::unsigned_payload);

  request.payload = payload_signing::automatic;
  request.headers = {{"x-amz-content-sha256", std::string(64, '0')}};
  built = build_request(request, signed_settings(), fixed_time);
  EXPECT_EQ(find_headers(built.wire.headers, "x-amz-content-sha256"),
            std::vector<std::string_view>{std::string(64, '0')});
}

TEST(BuildRequest, PresignedRequestsCarryTheSignatureInTheQuery) {
  s3_request request;
  request.bucket = "b";
  request.key = "a b";
  request.query = {{"partNumber", "1"}};
  request.presign_expires = 300s;
  const auto built = build_request(request, signed_settings(), fixed_time);
  EXPECT_FALSE(find_header(built.wire.headers, "Authorization"));
  EXPECT_FALSE(find_header(built.wire.headers, "x-amz-content-sha256"));
  EXPECT_TRUE(built.wire.target.starts_with("/b/a%20b?")) << built.wire.target;
  EXPECT_NE(built.wire.target.find("X-Amz-Signature="), std::string::npos);
  EXPECT_NE(built.wire.target.find("X-Amz-Expires=300"), std::string::npos);
  EXPECT_NE(built.wire.target.find("partNumber=1"), std::string::npos);
  EXPECT_TRUE(verifies(built.wire));
}

TEST(SignRawRequest, SignsTheTargetAsGiven) {
  s3::http_request_view wire{"GET", "/b/k?partNumber=0", {{"Host", "127.0.0.1:9000"}}};
  sign_raw_request(wire, {}, signed_settings(), fixed_time);
  EXPECT_EQ(wire.target, "/b/k?partNumber=0");
  EXPECT_TRUE(find_header(wire.headers, "Authorization"));
  EXPECT_TRUE(verifies(wire));
}

} // namespace
} // namespace s3fault::client
