#include "faults/rule_set.hpp"
#include "test_actions.hpp"

#include <gtest/gtest.h>

using namespace s3fault::faults;
using s3fault::faults::testing::make_rule;

namespace {

s3_request get(std::string_view target) {
  return classify_request({"GET", target, "127.0.0.1", {}});
}

header_lookup with_headers(std::vector<std::pair<std::string, std::string>> headers) {
  return [headers = std::move(headers)](std::string_view name) -> std::optional<std::string_view> {
    for (const auto& [n, v] : headers) {
      if (n == name) {
        return std::string_view(v);
      }
    }
    return std::nullopt;
  };
}

bool matches(const match_spec& m, std::string_view target, const header_lookup& h = {},
             std::string_view method = "GET") {
  return request_matches(m, classify_request({method, target, "127.0.0.1", {}}), method, h);
}

} // namespace

TEST(RuleMatch, EmptyMatchesEverything) {
  EXPECT_TRUE(matches({}, "/b/k"));
  EXPECT_TRUE(matches({}, "/"));
}

TEST(RuleMatch, OperationsMethodsBucketsKeys) {
  match_spec m;
  m.operations = {s3_operation::GetObject, s3_operation::HeadObject};
  EXPECT_TRUE(matches(m, "/b/k"));
  EXPECT_TRUE(matches(m, "/b/k", {}, "HEAD"));
  EXPECT_FALSE(matches(m, "/b/k", {}, "PUT"));
  EXPECT_FALSE(matches(m, "/b?list-type=2"));
  match_spec by_key;
  by_key.bucket = "logs-*";
  by_key.key = "*.parquet";
  EXPECT_TRUE(matches(by_key, "/logs-2026/day/a.parquet"));
  EXPECT_FALSE(matches(by_key, "/data/day/a.parquet"));
  EXPECT_FALSE(matches(by_key, "/logs-2026/day/a.csv"));
  match_spec by_method;
  by_method.methods = {"PUT"};
  EXPECT_TRUE(matches(by_method, "/b/k", {}, "put"));
  EXPECT_FALSE(matches(by_method, "/b/k"));
}

s3_request ranged_get(std::string_view target, std::string_view range) {
  return classify_request({"GET", target, "127.0.0.1", {}, range});
}

TEST(RuleMatch, CoversPicksTheRequestThatAsksForTheByte) {
  match_spec m;
  m.covers = 12 * 1024 * 1024;
  const auto asks = [&](std::string_view target, std::string_view range) {
    return request_matches(m, ranged_get(target, range), "GET", {});
  };
  // Parallel 4 MiB ranges: only the one holding byte 12 MiB, whatever the order.
  EXPECT_FALSE(asks("/b/k", "bytes=8388608-12582911"));
  EXPECT_TRUE(asks("/b/k", "bytes=12582912-16777215"));
  EXPECT_FALSE(asks("/b/k", "bytes=12582913-16777215"));
  EXPECT_TRUE(asks("/b/k", "bytes=0-12582912"));
  EXPECT_TRUE(asks("/b/k", "bytes=4194304-"));
  EXPECT_FALSE(asks("/b/k", "bytes=16777216-"));
  // The whole object (no Range, or one S3 ignores) holds every byte.
  EXPECT_TRUE(asks("/b/k", ""));
  EXPECT_TRUE(asks("/b/k", "bytes=0-1,5-9"));
  EXPECT_TRUE(asks("/b/k", "items=0-1"));
  // Suffix ranges and part reads: their bytes depend on what the request does not show.
  EXPECT_FALSE(asks("/b/k", "bytes=-16777216"));
  EXPECT_FALSE(asks("/b/k?partNumber=2", ""));
  EXPECT_TRUE(asks("/b/k?partNumber=2", "bytes=12582912-12582912"));
}

TEST(RuleMatch, QueryHeadersAndParts) {
  match_spec m;
  m.query = {{"partNumber", std::nullopt}};
  EXPECT_TRUE(matches(m, "/b/k?partNumber=3"));
  EXPECT_FALSE(matches(m, "/b/k"));
  m.query = {{"partNumber", std::string("1")}};
  EXPECT_TRUE(matches(m, "/b/k?partNumber=1"));
  EXPECT_FALSE(matches(m, "/b/k?partNumber=2"));

  match_spec parts;
  parts.part_numbers = std::make_pair(2u, 3u);
  EXPECT_FALSE(matches(parts, "/b/k?partNumber=1"));
  EXPECT_TRUE(matches(parts, "/b/k?partNumber=2"));
  EXPECT_TRUE(matches(parts, "/b/k?partNumber=3"));
  EXPECT_FALSE(matches(parts, "/b/k"));

  match_spec headers;
  headers.headers.push_back({"range", "", nullptr});
  EXPECT_TRUE(matches(headers, "/b/k", with_headers({{"range", "bytes=0-9"}})));
  EXPECT_FALSE(matches(headers, "/b/k", with_headers({})));
  headers.headers[0].pattern = "^bytes=0-";
  std::string problem;
  headers.headers[0].regex = header_regex::compile("^bytes=0-", problem);
  ASSERT_NE(headers.headers[0].regex, nullptr) << problem;
  EXPECT_TRUE(matches(headers, "/b/k", with_headers({{"range", "bytes=0-9"}})));
  EXPECT_FALSE(matches(headers, "/b/k", with_headers({{"range", "bytes=5-9"}})));
}

TEST(RuleSetDecide, DisabledRulesAndStatusRulesWait) {
  auto active = make_rule("active");
  auto disabled = make_rule("disabled");
  disabled.enabled = false;
  match_spec on_503;
  on_503.statuses = {503};
  auto by_status = make_rule("by-status", on_503, {}, action_phase::response_head);
  rule_set rules({active, disabled, by_status}, 1, clock::now());

  const auto request = get("/b/k");
  auto decision = rules.decide(request, "GET", {}, clock::now());
  ASSERT_EQ(decision.injected.size(), 1u);
  EXPECT_EQ(decision.injected[0].rule, "active");
  EXPECT_TRUE(decision.before.end_without_answer);
  EXPECT_EQ(decision.waiting_for_status.size(), 1u);

  rules.decide_on_status(decision, request, 200, clock::now());
  EXPECT_EQ(decision.injected.size(), 1u);
  EXPECT_EQ(by_status.state->injected.load(), 0u);

  auto second = rules.decide(request, "GET", {}, clock::now());
  rules.decide_on_status(second, request, 503, clock::now());
  ASSERT_EQ(second.injected.size(), 2u);
  EXPECT_EQ(second.injected[1].rule, "by-status");
  EXPECT_EQ(second.head_actions.size(), 1u);
  EXPECT_EQ(disabled.state->matched.load(), 0u);
}

TEST(RuleSetDecide, UntouchedTrafficGetsAnEmptyDecision) {
  match_spec only_puts;
  only_puts.operations = {s3_operation::PutObject};
  rule_set rules({make_rule("puts", only_puts)}, 1, clock::now());
  const auto decision = rules.decide(get("/b/k"), "GET", {}, clock::now());
  EXPECT_TRUE(decision.empty());
  EXPECT_FALSE(decision.touches_response());
}
