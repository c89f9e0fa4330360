// The one reading of addresses: a store's http(s)://HOST[:PORT] and a HOST:PORT to listen on.
#include "text/endpoint.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <utility>

namespace s3fault::text {
namespace {

TEST(Endpoint, ListenAddresses) {
  const auto a = listen_address::parse("127.0.0.1:0");
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 0);
  const auto b = listen_address::parse("[::1]:8443");
  EXPECT_EQ(b.host, "::1");
  EXPECT_EQ(b.port, 8443);
  const auto c = listen_address::parse("localhost:9000");
  EXPECT_EQ(c.host, "localhost");
  EXPECT_EQ(c.port, 9000);
}

TEST(Endpoint, StoreUrlsAndTheirThreeForms) {
  const auto a = http_endpoint::parse("http://127.0.0.1:7480");
  EXPECT_FALSE(a.tls);
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 7480);
  EXPECT_EQ(a.host_and_port(), "127.0.0.1:7480");
  EXPECT_EQ(a.authority(), "127.0.0.1:7480");
  EXPECT_EQ(a.url(), "http://127.0.0.1:7480");
  const auto b = http_endpoint::parse("https://s3.example.test/");
  EXPECT_TRUE(b.tls);
  EXPECT_EQ(b.port, 443);
  EXPECT_EQ(b.host_and_port(), "s3.example.test:443");
  EXPECT_EQ(b.authority(), "s3.example.test") << "the Host header leaves the default port out";
  EXPECT_EQ(b.url(), "https://s3.example.test");
  const auto c = http_endpoint::parse("http://[::1]:9000");
  EXPECT_EQ(c.host, "::1");
  EXPECT_EQ(c.authority(), "[::1]:9000");
  EXPECT_EQ(http_endpoint::parse("http://[::1]").authority(), "[::1]");
}

std::string refusal(std::string_view text, bool listen) {
  try {
    if (listen) {
      listen_address::parse(text);
    } else {
      http_endpoint::parse(text);
    }
  } catch (const std::invalid_argument& error) {
    return error.what();
  }
  return "(accepted)";
}

TEST(Endpoint, EveryRefusalNamesTheValueAndWhatIsWrong) {
  const std::pair<std::string_view, std::string_view> listen[] = {
      {"127.0.0.1", "HOST:PORT"}, {"127.0.0.1:70000", "0..65535"}, {":80", "host is missing"},
      {"::1:80", "brackets"},     {"[::1:80", "missing ']'"},      {"[::1]80", "':' before"},
  };
  for (const auto& [text, why] : listen) {
    const auto message = refusal(text, true);
    EXPECT_NE(message.find("'" + std::string(text) + "'"), std::string::npos) << message;
    EXPECT_NE(message.find(why), std::string::npos) << message;
  }
  const std::pair<std::string_view, std::string_view> store[] = {
      {"127.0.0.1:9000", "http://"},  {"ftp://h", "http://"},
      {"http://", "host is missing"}, {"http://h:0", "1..65535"},
      {"http://h:70000", "1..65535"}, {"http://h:x", "1..65535"},
      {"http://h/bucket", "path"},    {"http://u@h", "user info"},
      {"http://h?x=1", "query"},      {"http://[::1", "missing ']'"},
      {"http://h:1:2", "brackets"},
  };
  for (const auto& [text, why] : store) {
    const auto message = refusal(text, false);
    EXPECT_NE(message.find("'" + std::string(text) + "'"), std::string::npos) << message;
    EXPECT_NE(message.find(why), std::string::npos) << message;
  }
}

} // namespace
} // namespace s3fault::text
