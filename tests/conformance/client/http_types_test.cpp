// Plain values: header lookups, endpoints, ranges, body sources.
#include "conformance/client/endpoint.hpp"
#include "conformance/client/http_types.hpp"
#include "conformance/client/s3_client.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <unistd.h>

namespace s3fault::client {
namespace {

TEST(Headers, LookupsIgnoreCaseAndKeepOrder) {
  const header_list headers = {{"ETag", "\"a\""}, {"x-amz-meta-One", "1"}, {"X-AMZ-META-one", "2"}};
  EXPECT_EQ(find_header(headers, "etag"), "\"a\"");
  EXPECT_EQ(find_header(headers, "x-amz-meta-one"), "1");
  EXPECT_EQ(find_headers(headers, "X-Amz-Meta-One"), (std::vector<std::string_view>{"1", "2"}));
  EXPECT_FALSE(find_header(headers, "etag2"));
  EXPECT_TRUE(find_headers(headers, "missing").empty());
}

TEST(Headers, SetHeaderReplacesAllValuesInPlace) {
  header_list headers = {{"A", "1"}, {"b", "2"}, {"a", "3"}};
  set_header(headers, "a", "x");
  const header_list expected = {{"A", "x"}, {"b", "2"}};
  EXPECT_EQ(headers, expected);
  set_header(headers, "c", "y");
  EXPECT_EQ(headers.back(), (std::pair<std::string, std::string>{"c", "y"}));
}

TEST(Response, HelpersAndDescription) {
  response out;
  EXPECT_FALSE(out.head_received());
  EXPECT_FALSE(out.ok());
  out.status = 206;
  out.reason = "Partial Content";
  out.headers = {{"x-amz-mp-parts-count", "3"}};
  out.body_bytes = 10;
  out.content_length = 10;
  EXPECT_TRUE(out.ok());
  EXPECT_EQ(out.header("X-Amz-Mp-Parts-Count"), "3");
  EXPECT_EQ(out.describe(), "206 Partial Content, 10 body bytes (Content-Length 10)");
  out.failure.ec = client_errc::short_body;
  out.failure.message = "read body: connection closed";
  EXPECT_FALSE(out.ok());
  EXPECT_NE(out.describe().find("failed: read body"), std::string::npos);
  out.failure = {};
  out.error = s3_error{"InternalError", "boom", "", "", ""};
  EXPECT_FALSE(out.ok());
}

TEST(ClientErrors, HaveTheirOwnCategoryAndMessages) {
  const boost::system::error_code ec = client_errc::short_body;
  EXPECT_EQ(&ec.category(), &client_category());
  EXPECT_NE(ec.message().find("Content-Length"), std::string::npos);
}

TEST(Endpoint, ParsesSchemesHostsAndPorts) {
  auto parsed = endpoint::parse("http://127.0.0.1:7480");
  EXPECT_FALSE(parsed.tls);
  EXPECT_EQ(parsed.host, "127.0.0.1");
  EXPECT_EQ(parsed.port, 7480);
  EXPECT_EQ(parsed.authority(), "127.0.0.1:7480");
  parsed = endpoint::parse("https://s3.example.com/");
  EXPECT_TRUE(parsed.tls);
  EXPECT_EQ(parsed.port, 443);
  EXPECT_EQ(parsed.authority(), "s3.example.com");
  EXPECT_EQ(parsed.url(), "https://s3.example.com");
  parsed = endpoint::parse("http://[::1]:9000");
  EXPECT_EQ(parsed.host, "::1");
  EXPECT_EQ(parsed.authority(), "[::1]:9000");
}

TEST(Endpoint, RejectsWhatIsNotSchemeHostPort) {
  for (const char* bad : {"127.0.0.1:9000", "ftp://h", "http://", "http://h:0", "http://h:70000",
                          "http://h:x", "http://h/path", "http://u@h", "http://[::1"}) {
    EXPECT_THROW(endpoint::parse(bad), std::invalid_argument) << bad;
  }
}

TEST(Ranges, FormatTheThreeForms) {
  EXPECT_EQ(byte_range(0, 99), "bytes=0-99");
  EXPECT_EQ(byte_range_from(100), "bytes=100-");
  EXPECT_EQ(byte_range_suffix(5), "bytes=-5");
}

TEST(BodySource, SizesOfEachKind) {
  std::string error;
  EXPECT_EQ(body_source().size(error), 0u);
  EXPECT_EQ(body_source::from_string("abc").size(error), 3u);
  const std::string data = "view";
  EXPECT_EQ(body_source::from_view(data).bytes().data(), data.data());
  const std::string path = testing::TempDir() + "s3fault_source_" + std::to_string(::getpid());
  std::ofstream(path, std::ios::binary) << "0123456789";
  EXPECT_EQ(body_source::from_file(path).size(error), 10u);
  EXPECT_EQ(body_source::from_file(path, 4).size(error), 6u);
  EXPECT_EQ(body_source::from_file(path, 4, 6).size(error), 6u);
  EXPECT_FALSE(body_source::from_file(path, 4, 7).size(error));
  EXPECT_FALSE(error.empty());
  std::remove(path.c_str());
  error.clear();
  EXPECT_FALSE(body_source::from_file(path).size(error));
  EXPECT_NE(error.find(path), std::string::npos);
}

TEST(ClientConfig, MissingCredentialsAndBadEndpointsAreStartUpErrors) {
  EXPECT_THROW(s3_client({.endpoint = "http://127.0.0.1:9"}), std::invalid_argument);
  EXPECT_THROW(s3_client({.endpoint = "nonsense", .anonymous = true}), std::invalid_argument);
  EXPECT_NO_THROW(s3_client({.endpoint = "http://127.0.0.1:9", .anonymous = true}));
}

} // namespace
} // namespace s3fault::client
