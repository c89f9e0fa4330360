// Request edits carried out by the proxy (proxy/request_edits.hpp): which edits break a
// signature, and what edit_request hands the store, here for head-as-get, the edit that changes
// the method (always signed).
#include "proxy/request_edits.hpp"

#include "faults/config/fault_spec.hpp"
#include "faults/config/rule_parser.hpp"
#include "proxy/fault_application.hpp"

#include <gtest/gtest.h>

namespace s3fault::proxy {
namespace {

constexpr std::string_view signed_fields =
    "Authorization: AWS4-HMAC-SHA256 Credential=AK/20261201/us-east-1/s3/aws4_request, "
    "SignedHeaders=host;range;x-amz-date, Signature=00\r\n"
    "x-amz-date: 20261201T000000Z\r\n";

void parse_into(request_parser& parser, const std::string& wire) {
  configure_head_parser(parser, 64 * 1024);
  boost::system::error_code ec;
  parser.put(boost::asio::buffer(wire.data(), wire.size()), ec);
  ASSERT_FALSE(ec) << ec.message();
  ASSERT_TRUE(parser.is_header_done());
}

/// One exchange's decision under one rule given in the one-line syntax.
struct decided {
  std::shared_ptr<const faults::rule_set> rules;
  request_parser request;
  faults::exchange_decision decision;

  decided(const std::string& spec, const std::string& wire) {
    faults::error_list errors;
    const auto rule_json = faults::config::fault_spec_to_json(spec, errors);
    EXPECT_TRUE(rule_json) << spec;
    auto build = faults::config::parse_rule_document(
        nlohmann::json::array({rule_json.value_or(nlohmann::json::object())}));
    EXPECT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
    rules =
        std::make_shared<const faults::rule_set>(std::move(build.rules), 1, faults::clock::now());
    parse_into(request, wire);
    const auto& head = request.get();
    const std::string method(head.method_string());
    const std::string target(head.target());
    const auto field = head.find(http::field::range);
    const std::string range = field == head.end() ? "" : std::string(field->value());
    const faults::request_line line{method, target, "127.0.0.1", {}, range};
    decision = rules->decide(faults::classify_request(line), method, request_header_lookup(request),
                             faults::clock::now());
  }
};

std::string head_of(std::string_view method, std::string_view extra_fields) {
  return std::string(method) + " /b/k HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=0-9\r\n" +
         std::string(extra_fields) + "\r\n";
}

TEST(RequestEdits, AChangedMethodBreaksAnySignatureAndNoUnsignedRequest) {
  faults::request_head head;
  head.method = "HEAD";
  head.headers = {{"Host", "h"}, {"Authorization", "AWS4-HMAC-SHA256 SignedHeaders=host"}};
  EXPECT_FALSE(edits_break_signature(head));
  head.set_method("GET");
  EXPECT_TRUE(edits_break_signature(head)); // the method opens SigV4's canonical request
  head.remove_header("Authorization");
  EXPECT_FALSE(edits_break_signature(head));
}

TEST(RequestEdits, HeadAsGetSendsAnUnsignedHeadAsAGetOfItsRange) {
  decided exchange("head-as-get op=HeadObject name=ranged", head_of("HEAD", ""));
  const auto edited = edit_request(exchange.request, exchange.decision, nullptr);
  ASSERT_TRUE(edited.head);
  EXPECT_EQ(*edited.head, head_of("GET", ""));
  EXPECT_EQ(edited.method, "GET");
  EXPECT_EQ(edited.problem, "");
}

TEST(RequestEdits, HeadAsGetOnASignedHeadNeedsKeysAndIsSignedAgainWithThem) {
  const std::string sent = head_of("HEAD", signed_fields);
  decided without_keys("head-as-get op=HeadObject", sent);
  const auto unsent = edit_request(without_keys.request, without_keys.decision, nullptr);
  EXPECT_FALSE(unsent.head); // the client's HEAD goes as it came
  EXPECT_TRUE(unsent.problem.starts_with("the edit changes what the request's signature covers"))
      << unsent.problem;

  decided with_keys("head-as-get op=HeadObject", sent);
  std::string signed_method;
  const request_resigner resigner = [&](faults::request_head& head) -> std::optional<std::string> {
    signed_method = head.method;
    head.set_header("Authorization", "signed again");
    return std::nullopt;
  };
  const auto resigned = edit_request(with_keys.request, with_keys.decision, resigner);
  ASSERT_TRUE(resigned.head);
  EXPECT_EQ(signed_method, "GET"); // the signer saw the method the store is sent
  EXPECT_EQ(resigned.method, "GET");
  EXPECT_TRUE(resigned.head->starts_with("GET /b/k HTTP/1.1\r\n")) << *resigned.head;
  EXPECT_NE(resigned.head->find("\r\nAuthorization: signed again\r\n"), std::string::npos);
}

TEST(RequestEdits, HeadAsGetLeavesAGetAndAHeadWithoutRangeAsSent) {
  decided get("head-as-get", head_of("GET", ""));
  EXPECT_FALSE(edit_request(get.request, get.decision, nullptr).head);
  decided whole("head-as-get", "HEAD /b/k HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
  EXPECT_FALSE(edit_request(whole.request, whole.decision, nullptr).head);
}

} // namespace
} // namespace s3fault::proxy
