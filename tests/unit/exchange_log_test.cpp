#include "proxy/exchange_log.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace s3fault::proxy;

TEST(ExchangeLog, JsonLineCarriesTheFields) {
  exchange_record r;
  r.client = "127.0.0.1:5000";
  r.method = "GET";
  r.target = "/b/k?Signature=secret";
  r.status = 206;
  r.request_bytes = 0;
  r.response_bytes = 8388608;
  r.duration_ms = 12.5;
  r.ttfb_ms = 1.25;
  r.upstream_used = true;
  r.upstream_reused = true;
  const auto line = nlohmann::json::parse(format_exchange(r, log_format::json));
  EXPECT_EQ(line["method"], "GET");
  EXPECT_EQ(line["status"], 206);
  EXPECT_EQ(line["response_bytes"], 8388608);
  EXPECT_EQ(line["upstream"], "reused");
  EXPECT_EQ(line["target"], "/b/k?Signature=REDACTED");
  EXPECT_DOUBLE_EQ(line["ttfb_ms"].get<double>(), 1.25);
  const std::string text = format_exchange(r, log_format::text);
  EXPECT_NE(text.find("GET /b/k?Signature=REDACTED 206"), std::string::npos);
  EXPECT_EQ(text.find("secret"), std::string::npos);
}
