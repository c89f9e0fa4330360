#include "proxy/exchange_log.hpp"

#include "faults/s3_request.hpp"
#include "proxy/journal_line.hpp"

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
  r.store_ttfb_ms = 0.5;
  r.upstream_used = true;
  r.upstream_reused = true;
  const auto request = s3fault::faults::classify_request({"GET", r.target, "127.0.0.1", {}});
  const auto line = nlohmann::json::parse(format_exchange(r, request, log_format::json));
  EXPECT_EQ(line["method"], "GET");
  EXPECT_EQ(line["status"], 206);
  EXPECT_EQ(line["response_bytes"], 8388608);
  EXPECT_EQ(line["upstream"], "reused");
  EXPECT_EQ(line["target"], "/b/k?Signature=REDACTED");
  EXPECT_DOUBLE_EQ(line["ttfb_ms"].get<double>(), 1.25);
  EXPECT_DOUBLE_EQ(line["store_ttfb_ms"].get<double>(), 0.5);
  EXPECT_EQ(line["operation"], "GetObject");
  EXPECT_EQ(line["bucket"], "b");
  const std::string text = format_exchange(r, request, log_format::text);
  EXPECT_NE(text.find(" op=GetObject "), std::string::npos) << text;
  EXPECT_EQ(text.find("bucket="), std::string::npos) << "path-style: the target shows it";
  EXPECT_NE(text.find("GET /b/k?Signature=REDACTED 206"), std::string::npos);
  EXPECT_NE(text.find(" dur=12.50ms ttfb=1.25ms store_ttfb=0.50ms upstream=reused "),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("secret"), std::string::npos);
}

TEST(ExchangeLog, VirtualHostedRequestsNameTheirBucketAndTheStoresRequestId) {
  exchange_record r;
  r.method = "PUT";
  r.target = "/photos/cat.jpg";
  r.host = "media.s3.example.test";
  r.status = 200;
  r.request_id = "TX0042";
  const auto request =
      s3fault::faults::classify_request({"PUT", r.target, r.host, {}}, {"s3.example.test"});
  const std::string text = format_exchange(r, request, log_format::text);
  EXPECT_NE(text.find("PUT /photos/cat.jpg 200 op=PutObject bucket=media "), std::string::npos)
      << text;
  EXPECT_NE(text.find(" id=TX0042 "), std::string::npos) << text;
  const auto json = nlohmann::json::parse(format_exchange(r, request, log_format::json));
  EXPECT_EQ(json["bucket"], "media");
  EXPECT_EQ(json["request_id"], "TX0042");
}

TEST(ExchangeLog, ARequestThatIsNoOperationSaysWhy) {
  exchange_record r;
  r.method = "POST";
  r.target = "/b/k";
  r.status = 405;
  const auto request = s3fault::faults::classify_request({"POST", r.target, "127.0.0.1", {}});
  const std::string text = format_exchange(r, request, log_format::text);
  EXPECT_NE(text.find(" op=Other "), std::string::npos) << text;
  EXPECT_TRUE(text.ends_with(" other=\"no S3 operation is a POST on an object with this query\""))
      << text;
  const auto json = nlohmann::json::parse(format_exchange(r, request, log_format::json));
  EXPECT_EQ(json["other"], "no S3 operation is a POST on an object with this query");
  const auto named = s3fault::faults::classify_request({"GET", "/b?uploads", "127.0.0.1", {}});
  EXPECT_EQ(format_exchange(r, named, log_format::text).find("other="), std::string::npos);
}

TEST(JournalLine, CarriesTheExchangeAndOnlyRedactedRequestFields) {
  exchange_record r;
  r.started_at = std::chrono::system_clock::time_point(std::chrono::milliseconds(1764772200123));
  r.client = "127.0.0.1:40112";
  r.method = "GET";
  r.target = "/photos/cat.jpg?partNumber=2&X-Amz-Signature=abc";
  r.range = "bytes=0-9";
  r.status = 503;
  r.error_code = "SlowDown";
  r.response_bytes = 230;
  r.duration_ms = 4.5;
  r.faults = "slow:error";
  r.ttfb_ms = 0.25; // the proxy's own answer
  r.request_headers = {{"Host", "127.0.0.1:8080"}, {"Authorization", "REDACTED"}};
  r.response_headers = {{"Content-Type", "application/xml"}, {"Content-Length", "230"}};
  const auto request = s3fault::faults::classify_request({"GET", r.target, "127.0.0.1:8080", {}});
  const auto line = nlohmann::json::parse(journal_line(r, request));
  EXPECT_EQ(
      line["response_headers"],
      nlohmann::json::parse(R"([["Content-Type","application/xml"],["Content-Length","230"]])"));
  EXPECT_EQ(line["time"], "2025-12-03T14:30:00.123Z");
  EXPECT_EQ(line["target"], "/photos/cat.jpg?partNumber=2&X-Amz-Signature=REDACTED");
  EXPECT_EQ(line["operation"], "GetObject");
  EXPECT_EQ(line["bucket"], "photos");
  EXPECT_EQ(line["key"], "cat.jpg");
  EXPECT_EQ(line["part"], 2);
  EXPECT_EQ(line["range"], "bytes=0-9");
  EXPECT_EQ(line["status"], 503);
  EXPECT_EQ(line["error_code"], "SlowDown");
  EXPECT_EQ(line["faults"], "slow:error");
  EXPECT_EQ(line["ttfb_ms"], 0.25);
  EXPECT_FALSE(line.contains("store_ttfb_ms")) << "no store answer: no time to its first byte";
  EXPECT_FALSE(line.contains("request_id"));
  EXPECT_EQ(line["request_headers"],
            nlohmann::json::parse(R"([["Host","127.0.0.1:8080"],["Authorization","REDACTED"]])"));
}

TEST(ExchangeOutcome, TheTextIsDerivedFromTheKindItsDetailAndItsAsides) {
  exchange_record r;
  EXPECT_EQ(outcome_text(r), "ok");
  r.outcome = {outcome_kind::upstream_connect_failed, "Connection refused"};
  EXPECT_EQ(outcome_text(r), "upstream connect failed: Connection refused");
  r.outcome = {outcome_kind::fault_answer_replaced, "200"};
  r.status = 503;
  EXPECT_EQ(outcome_text(r), "fault: the store answered 200, the client was told 503");
  r.outcome = {outcome_kind::fault_upload_reset, "4096"};
  r.outcome.asides = {"12 still unacknowledged by the store when the wait for them ran out"};
  EXPECT_EQ(outcome_text(r), "fault: upload reset after 4096 bytes (12 still unacknowledged by "
                             "the store when the wait for them ran out)");
  r.outcome = {outcome_kind::request_refused, "s3fault: rejected request: both framings"};
  r.outcome.asides = {"the client went away before the answer: Broken pipe"};
  EXPECT_EQ(outcome_text(r), "s3fault: rejected request: both framings (the client went away "
                             "before the answer: Broken pipe)");
}

TEST(ExchangeOutcome, EveryKindButOkIsAFailureInTheLogLineAndTheJournal) {
  exchange_record r;
  r.client = "127.0.0.1:5000";
  r.method = "GET";
  r.target = "/b/k";
  r.status = 200;
  r.outcome = {outcome_kind::fault_body_cut};
  EXPECT_FALSE(r.outcome.ok());
  const auto request = s3fault::faults::classify_request({"GET", r.target, "127.0.0.1", {}});
  const auto line = nlohmann::json::parse(format_exchange(r, request, log_format::json));
  EXPECT_EQ(line["outcome"], "fault: body cut short");
  EXPECT_NE(format_exchange(r, request, log_format::text).find(" fault: body cut short"),
            std::string::npos);
  EXPECT_EQ(journal_json(r, request)["outcome"], "fault: body cut short");
}
