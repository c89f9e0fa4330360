#include "proxy/endpoint.hpp"

#include <gtest/gtest.h>

using namespace s3fault::proxy;

TEST(Endpoint, ListenAddresses) {
  auto a = parse_listen_address("127.0.0.1:0");
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 0);
  auto b = parse_listen_address("[::1]:8443");
  EXPECT_EQ(b.host, "::1");
  EXPECT_EQ(b.port, 8443);
  auto c = parse_listen_address("localhost:9000");
  EXPECT_EQ(c.host, "localhost");
  EXPECT_EQ(c.port, 9000);
}

TEST(Endpoint, UpstreamUrls) {
  auto a = parse_upstream_url("http://127.0.0.1:7480");
  EXPECT_FALSE(a.tls);
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 7480);
  EXPECT_EQ(a.authority(), "127.0.0.1:7480");
  auto b = parse_upstream_url("https://s3.example.test/");
  EXPECT_TRUE(b.tls);
  EXPECT_EQ(b.port, 443);
  auto c = parse_upstream_url("http://[::1]:9000");
  EXPECT_EQ(c.host, "::1");
  EXPECT_EQ(c.authority(), "[::1]:9000");
}

TEST(Endpoint, BadInputNamesTheProblem) {
  auto message = [](auto parse, std::string_view text) {
    try {
      parse(text);
    } catch (const std::invalid_argument& error) {
      return std::string(error.what());
    }
    return std::string("(accepted)");
  };
  auto listen = [](std::string_view t) { return parse_listen_address(t); };
  auto upstream = [](std::string_view t) { return parse_upstream_url(t); };
  EXPECT_NE(message(listen, "127.0.0.1").find("HOST:PORT"), std::string::npos);
  EXPECT_NE(message(listen, "127.0.0.1:70000").find("port"), std::string::npos);
  EXPECT_NE(message(listen, ":80").find("host"), std::string::npos);
  EXPECT_NE(message(upstream, "ftp://x:1").find("http://"), std::string::npos);
  EXPECT_NE(message(upstream, "http://x:1/bucket").find("path"), std::string::npos);
  EXPECT_NE(message(upstream, "http://x:0").find("port"), std::string::npos);
  EXPECT_NE(message(upstream, "http://[::1:80").find("]"), std::string::npos);
}
