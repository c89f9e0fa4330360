// Request-head actions and the request_head they edit: what the store is sent, byte for byte in
// the target and fields, and whether each action says it changed anything (a rule counts only
// then).
#include "action_test_support.hpp"
#include "faults/request_head.hpp"
#include "faults/rule.hpp"

#include <gtest/gtest.h>

using namespace s3fault::faults;
using namespace s3fault::faults::testing;

namespace {

request_head get(std::string target) {
  request_head head;
  head.method = "GET";
  head.target = std::move(target);
  head.headers = {{"Host", "127.0.0.1:9000"},
                  {"Range", "bytes=-5"},
                  {"If-Match", "\"abc\""},
                  {"x-amz-date", "20261201T000000Z"}};
  return head;
}

bool apply(const std::string& type, const std::string& params, request_head& head) {
  return make_action(type, params)->apply_to_request(head);
}

} // namespace

TEST(RequestHead, RemovesEveryParameterOfTheNameAndKeepsTheOthersAsSent) {
  auto head = get("/b/k%20x?partNumber=1&versionId=a%2Fb&partNumber=2");
  EXPECT_TRUE(head.remove_query("partNumber"));
  EXPECT_EQ(head.target, "/b/k%20x?versionId=a%2Fb");
  EXPECT_TRUE(head.query_changed);
  EXPECT_FALSE(head.remove_query("partNumber"));
  EXPECT_TRUE(head.remove_query("versionId"));
  EXPECT_EQ(head.target, "/b/k%20x");
}

TEST(RequestHead, AbsentParameterChangesNothing) {
  auto head = get("/b/k?versionId=1");
  EXPECT_FALSE(head.remove_query("partNumber"));
  EXPECT_FALSE(head.remove_query("version")); // a prefix is not the name
  EXPECT_EQ(head.target, "/b/k?versionId=1");
  EXPECT_FALSE(head.changed());
}

TEST(RequestHead, NamesAreDecodedBeforeComparing) {
  auto head = get("/b/k?part%4Eumber=3");
  EXPECT_EQ(head.query("partNumber"), "3");
  EXPECT_TRUE(head.remove_query("partNumber"));
  EXPECT_EQ(head.target, "/b/k");
}

TEST(RequestHead, SetQueryReplacesTheFirstDropsTheRestOrAppends) {
  auto head = get("/b?max-keys=5&prefix=a&max-keys=6");
  EXPECT_TRUE(head.set_query("max-keys", "1"));
  EXPECT_EQ(head.target, "/b?max-keys=1&prefix=a");
  EXPECT_FALSE(head.set_query("max-keys", "1"));
  EXPECT_TRUE(head.set_query("delimiter", "a/b c"));
  EXPECT_EQ(head.target, "/b?max-keys=1&prefix=a&delimiter=a%2Fb%20c");
  auto bare = get("/b");
  EXPECT_TRUE(bare.set_query("versions", ""));
  EXPECT_EQ(bare.target, "/b?versions=");
}

TEST(RequestHead, HeadersAreEditedCaseInsensitivelyAndNoted) {
  auto head = get("/b/k");
  EXPECT_TRUE(head.remove_header("if-match"));
  EXPECT_FALSE(head.header("If-Match"));
  EXPECT_FALSE(head.remove_header("If-Match"));
  EXPECT_TRUE(head.set_header("range", "bytes=0-5"));
  EXPECT_EQ(head.header("Range"), "bytes=0-5");
  EXPECT_EQ(head.headers[1].first, "Range"); // in place, with the client's spelling
  EXPECT_FALSE(head.set_header("Range", "bytes=0-5"));
  EXPECT_EQ(head.changed_headers, (std::vector<std::string>{"if-match", "range"}));
  EXPECT_FALSE(head.query_changed);
}

TEST(RequestHead, SetHeaderLeavesOneFieldOfTheName) {
  auto head = get("/b/k");
  head.headers.emplace_back("range", "bytes=1-2");
  EXPECT_TRUE(head.set_header("Range", "bytes=-5")); // the first had it: the duplicate goes
  EXPECT_EQ(std::count_if(head.headers.begin(), head.headers.end(),
                          [](const auto& f) { return f.first == "Range" || f.first == "range"; }),
            1);
}

TEST(RequestEdits, StripQueryDropsPartNumber) {
  auto head = get("/b/k?partNumber=1");
  EXPECT_TRUE(apply("strip-query", R"({"name": "partNumber"})", head));
  EXPECT_EQ(head.target, "/b/k");
  EXPECT_FALSE(apply("strip-query", R"({"name": "partNumber"})", head));
}

TEST(RequestEdits, SetQuery) {
  auto head = get("/b?list-type=2");
  EXPECT_TRUE(apply("set-query", R"({"name": "max-keys", "value": 1})", head));
  EXPECT_EQ(head.target, "/b?list-type=2&max-keys=1");
}

TEST(RequestEdits, StripAndSetRequestHeader) {
  auto head = get("/b/k");
  EXPECT_TRUE(apply("strip-request-header", R"({"name": "If-Match"})", head));
  EXPECT_FALSE(head.header("If-Match"));
  EXPECT_FALSE(apply("strip-request-header", R"({"name": "If-None-Match"})", head));
  EXPECT_TRUE(apply("set-request-header", R"({"name": "If-None-Match", "value": "*"})", head));
  EXPECT_EQ(head.header("if-none-match"), "*");
}

TEST(RequestEdits, RewriteReadsASuffixRangeAsAPrefix) {
  const std::string params =
      R"({"name": "Range", "pattern": "^bytes=-([0-9]+)$", "replacement": "bytes=0-\\1"})";
  auto head = get("/b/k");
  EXPECT_TRUE(apply("rewrite-request-header", params, head));
  EXPECT_EQ(head.header("Range"), "bytes=0-5");
  // Already a prefix range: no match, nothing changes, the rule would not count.
  EXPECT_FALSE(apply("rewrite-request-header", params, head));
  EXPECT_EQ(head.header("Range"), "bytes=0-5");
  auto without = get("/b/k");
  without.remove_header("Range");
  without.changed_headers.clear();
  EXPECT_FALSE(apply("rewrite-request-header", params, without));
  EXPECT_FALSE(without.changed());
}

TEST(RequestEdits, ResignAsksForASignatureAndKeepsPresignedUrls) {
  auto header_signed = get("/b/k");
  EXPECT_TRUE(apply("resign", "{}", header_signed));
  EXPECT_TRUE(header_signed.resign_requested);
  auto presigned = get("/b/k?X-Amz-Signature=00&X-Amz-Expires=1");
  EXPECT_FALSE(apply("resign", "{}", presigned));
  EXPECT_FALSE(presigned.resign_requested);
  EXPECT_TRUE(apply("resign", R"({"presigned": "resign"})", presigned));
  EXPECT_TRUE(presigned.resign_requested);
}

namespace {

/// A HEAD of the range bytes=0-9, as the client sent it (nothing noted as changed).
request_head head_request(std::string target) {
  auto head = get(std::move(target));
  head.method = "HEAD";
  head.set_header("Range", "bytes=0-9");
  head.changed_headers.clear();
  return head;
}

} // namespace

TEST(RequestHead, SetMethodNotesAChange) {
  auto head = get("/b/k");
  EXPECT_FALSE(head.set_method("GET"));
  EXPECT_FALSE(head.changed());
  EXPECT_TRUE(head.set_method("HEAD"));
  EXPECT_EQ(head.method, "HEAD");
  EXPECT_TRUE(head.method_changed);
  EXPECT_TRUE(head.changed());
  EXPECT_FALSE(head.query_changed);
  EXPECT_TRUE(head.changed_headers.empty());
}

TEST(HeadAsGet, SendsARangedHeadAsAGetOfThatRangeAndChangesNothingElse) {
  auto head = head_request("/b/k%20x?versionId=1");
  const auto before = head;
  EXPECT_TRUE(apply("head-as-get", "{}", head));
  EXPECT_EQ(head.method, "GET");
  EXPECT_TRUE(head.method_changed);
  EXPECT_EQ(head.target, before.target);
  EXPECT_EQ(head.headers, before.headers); // the Range kept, and every other field
  EXPECT_FALSE(head.query_changed);
  EXPECT_TRUE(head.changed_headers.empty());
  // Now a GET: a second application (or a second rule) finds nothing to do.
  EXPECT_FALSE(apply("head-as-get", "{}", head));
}

TEST(HeadAsGet, LeavesEveryOtherRequestUntouched) {
  // A HEAD without a Range: a GET would answer the same head at the cost of the whole body.
  auto whole = head_request("/b/k");
  whole.remove_header("range");
  whole.changed_headers.clear();
  EXPECT_FALSE(apply("head-as-get", "{}", whole));
  EXPECT_EQ(whole.method, "HEAD");
  EXPECT_FALSE(whole.changed());
  // Not a HEAD, with a Range or without: not this action's business.
  for (const std::string method : {"GET", "PUT", "POST", "DELETE", "head"}) {
    auto other = get("/b/k");
    other.method = method;
    EXPECT_FALSE(apply("head-as-get", "{}", other)) << method;
    EXPECT_EQ(other.method, method);
    EXPECT_FALSE(other.changed()) << method;
  }
}

TEST(HeadAsGet, RefusesAMatchThatTakesNoHead) {
  const auto action = make_action("head-as-get", "{}");
  const auto refusal = [&](std::vector<std::string> methods, std::vector<s3_operation> operations) {
    match_spec match;
    match.methods = std::move(methods);
    match.operations = std::move(operations);
    return action->refuse_match(match);
  };
  EXPECT_EQ(refusal({}, {}), std::nullopt); // takes everything, HEADs too
  EXPECT_EQ(refusal({"GET", "HEAD"}, {s3_operation::GetObject, s3_operation::HeadObject}),
            std::nullopt);
  EXPECT_EQ(refusal({}, {s3_operation::HeadBucket}), std::nullopt);
  EXPECT_EQ(refusal({"GET", "PUT"}, {}),
            "match.methods: 'head-as-get' acts only on HEAD requests, and the rule takes none "
            "(methods: GET, PUT)");
  EXPECT_EQ(refusal({}, {s3_operation::GetObject}),
            "match.operations: 'head-as-get' acts only on HEAD requests (HeadObject), and the "
            "rule takes none (operations: GetObject)");
  // The other request edits act on any method.
  match_spec get_only;
  get_only.methods = {"GET"};
  EXPECT_EQ(make_action("resign", "{}")->refuse_match(get_only), std::nullopt);
}

TEST(HeadAsGet, TakesNoParameters) {
  EXPECT_EQ(make_action("head-as-get", "{}")->to_json(), nlohmann::json({{"type", "head-as-get"}}));
  const auto parsed = parse_action("head-as-get", nlohmann::json::parse(R"({"range": "0-9"})"));
  EXPECT_EQ(parsed.action, nullptr);
  ASSERT_EQ(parsed.errors.size(), 1u);
  EXPECT_TRUE(parsed.errors[0].starts_with("range: unknown parameter")) << parsed.errors[0];
}

TEST(RequestEdits, BadParametersNameTheFieldAndWhatIsAllowed) {
  const auto expect_error = [](std::string_view type, const std::string& params,
                               std::string_view starts) {
    const auto parsed = parse_action(type, nlohmann::json::parse(params));
    EXPECT_EQ(parsed.action, nullptr) << type << " " << params;
    ASSERT_FALSE(parsed.errors.empty()) << type << " " << params;
    EXPECT_TRUE(parsed.errors.front().starts_with(starts))
        << type << ": " << ::testing::PrintToString(parsed.errors);
  };
  expect_error("strip-query", "{}", "name: missing");
  expect_error("strip-query", R"({"name": "a=b"})", "name: must be a query parameter name");
  expect_error("strip-query", R"({"name": ""})", "name: must be a query parameter name");
  expect_error("strip-request-header", R"({"name": "Authorization"})",
               "name: authorization carries the request's signature");
  expect_error("strip-request-header", R"({"name": "Content-Length"})",
               "name: content-length frames the body");
  expect_error("set-request-header", R"({"name": "Range", "value": "a\nb"})",
               "value: must be a header value");
  expect_error("rewrite-request-header", R"({"name": "Range", "pattern": "(", "replacement": ""})",
               "pattern: regex '(' is not valid RE2 syntax");
  expect_error("rewrite-request-header",
               R"({"name": "Range", "pattern": "a", "replacement": "\\2"})", "replacement:");
  expect_error("resign", R"({"presigned": "maybe"})", "presigned: must be one of");
}

TEST(RequestHead, SignatureParametersComeFromAuthorizationOrThePresignedQuery) {
  auto header_signed = get("/b/k");
  header_signed.headers.emplace_back(
      "Authorization", "AWS4-HMAC-SHA256 Credential=AK/20261201/eu-west-1/s3/aws4_request, "
                       "SignedHeaders=host;range, Signature=00");
  EXPECT_EQ(signature_parameter(header_signed, "Credential"),
            "AK/20261201/eu-west-1/s3/aws4_request");
  EXPECT_EQ(signature_parameter(header_signed, "SignedHeaders"), "host;range");
  EXPECT_EQ(signature_parameter(header_signed, "Nope"), std::nullopt);
  const auto presigned = get("/b/k?X-Amz-Credential=AK%2F20261201%2Fus-east-1%2Fs3%2Faws4_request"
                             "&X-Amz-SignedHeaders=host");
  EXPECT_EQ(signature_parameter(presigned, "Credential"), "AK/20261201/us-east-1/s3/aws4_request");
  EXPECT_EQ(signature_parameter(presigned, "SignedHeaders"), "host");
  EXPECT_EQ(signature_parameter(get("/b/k"), "Credential"), std::nullopt);
}
