// How a check reaches its verdict from what it recorded, with responses built by hand (no
// store): expectations met or not, deviations, skips, responses that never came.
#include "conformance/audit/check_context.hpp"

#include <gtest/gtest.h>

namespace s3fault::audit {
namespace {

client::response answer(unsigned status, client::header_list headers = {}, std::string body = {}) {
  client::response response;
  response.status = status;
  response.headers = std::move(headers);
  response.body_bytes = body.size();
  response.body = std::move(body);
  return response;
}

client::response no_answer() {
  client::response response;
  response.failure.ec = make_error_code(client::client_errc::closed_before_response);
  response.failure.message = "connection closed before any response byte";
  return response;
}

class CheckContext : public ::testing::Test {
protected:
  client::s3_client client_{
      {.endpoint = "http://127.0.0.1:9", .credentials = {"key", "secret", ""}}};
  fixture_set fixtures_;
  check_outcome outcome_;
  check_context ctx_{client_, fixtures_, outcome_};

  verdict conclude() {
    ctx_.conclude();
    return outcome_.result;
  }
};

TEST_F(CheckContext, AllExpectationsMetIsPass) {
  const auto part = answer(206, {{"Content-Range", "bytes 0-9/20"}}, "0123456789");
  EXPECT_TRUE(ctx_.expect_status(part, 206, "part 1"));
  EXPECT_TRUE(ctx_.expect_header(part, "Content-Range", "bytes 0-9/20", "part 1"));
  EXPECT_TRUE(ctx_.expect_body(part, "0123456789", "part 1"));
  EXPECT_EQ(conclude(), verdict::pass);
  ASSERT_EQ(outcome_.expectations.size(), 3u);
  EXPECT_EQ(outcome_.expectations[1].expected, "part 1: Content-Range: bytes 0-9/20");
}

TEST_F(CheckContext, AMissingHeaderIsFailWithWhatWasSeen) {
  const auto part = answer(206);
  EXPECT_FALSE(ctx_.expect_header(part, "x-amz-mp-parts-count", "3", "part 1"));
  EXPECT_EQ(conclude(), verdict::fail);
  EXPECT_EQ(outcome_.expectations[0].observed, "part 1: no x-amz-mp-parts-count");
}

TEST_F(CheckContext, ARepeatedHeaderIsNotExactlyOneValue) {
  const auto part = answer(206, {{"ETag", "\"a\""}, {"ETag", "\"a\""}});
  EXPECT_FALSE(ctx_.expect_header(part, "ETag", "\"a\"", ""));
  EXPECT_EQ(outcome_.expectations[0].observed, "ETag: \"a\", ETag: \"a\"");
}

TEST_F(CheckContext, BodyMismatchNamesTheFirstDifferingOffset) {
  EXPECT_FALSE(ctx_.expect_body(answer(200, {}, "abcXef"), "abcdef", "GET"));
  EXPECT_NE(outcome_.expectations[0].observed.find("first difference at offset 3"),
            std::string::npos)
      << outcome_.expectations[0].observed;
  EXPECT_FALSE(ctx_.expect_body(answer(200, {}, "abc"), "abcdef", "GET"));
  EXPECT_NE(outcome_.expectations[1].observed.find("3 bytes, a prefix of the expected bytes"),
            std::string::npos)
      << outcome_.expectations[1].observed;
}

TEST_F(CheckContext, AShortBodyFailsEvenWhenTheBytesSoFarMatch) {
  auto shortened = answer(200, {}, "abcdef");
  shortened.failure.ec = make_error_code(client::client_errc::short_body);
  shortened.failure.message = "6 of 10 body bytes";
  EXPECT_FALSE(ctx_.expect_body(shortened, "abcdef", ""));
  EXPECT_EQ(conclude(), verdict::fail);
}

TEST_F(CheckContext, ErrorCodeIsCheckedAfterTheStatus) {
  auto refused = answer(416);
  refused.error = client::s3_error{"InvalidRange", "", "", "", ""};
  EXPECT_FALSE(ctx_.expect_error(refused, 416, "InvalidPartNumber", "part 4"));
  EXPECT_EQ(outcome_.expectations.back().observed, "part 4: error code InvalidRange");
  EXPECT_TRUE(ctx_.expect_error(refused, 416, "InvalidRange", "part 4"));
}

TEST_F(CheckContext, DeviationAloneIsDeviation) {
  ctx_.deviation("400 InvalidPart instead of 416 InvalidPartNumber");
  EXPECT_EQ(conclude(), verdict::deviation);
  EXPECT_EQ(outcome_.reason, "400 InvalidPart instead of 416 InvalidPartNumber");
}

TEST_F(CheckContext, AnUnmetExpectationOutweighsADeviation) {
  ctx_.deviation("one");
  ctx_.expect(false, "x", "y");
  EXPECT_EQ(conclude(), verdict::fail);
  EXPECT_EQ(outcome_.reason, "also: one");
}

TEST_F(CheckContext, SkipWinsOverExpectations) {
  ctx_.expect(false, "x", "y");
  ctx_.skip("the store does not return x-amz-checksum-crc32");
  EXPECT_EQ(conclude(), verdict::skip);
}

TEST_F(CheckContext, NoResponseAtAllIsError) {
  ctx_.record(no_answer(), "GET /b/k");
  ctx_.expect(true, "x", "x");
  EXPECT_EQ(conclude(), verdict::error);
  EXPECT_NE(outcome_.reason.find("GET /b/k: no response"), std::string::npos) << outcome_.reason;
  ASSERT_EQ(outcome_.exchanges.size(), 1u);
  EXPECT_EQ(outcome_.exchanges[0].status, 0u);
}

TEST_F(CheckContext, RecordKeepsTheHeadersReadersDependOn) {
  ctx_.record(
      answer(206,
             {{"Content-Range", "bytes 0-0/1"}, {"x-amz-mp-parts-count", "2"}, {"Server", "x"}}),
      "GET /b/k?partNumber=1");
  ASSERT_EQ(outcome_.exchanges.size(), 1u);
  const auto& headers = outcome_.exchanges[0].headers;
  ASSERT_EQ(headers.size(), 2u);
  EXPECT_EQ(headers[0].first, "Content-Range");
  EXPECT_EQ(headers[1], (std::pair<std::string, std::string>{"x-amz-mp-parts-count", "2"}));
}

TEST_F(CheckContext, HeadErrorsWantNoBody) {
  EXPECT_TRUE(ctx_.expect_head_error(answer(404), 404, "HEAD"));
  EXPECT_FALSE(ctx_.expect_head_error(answer(404, {}, "<Error/>"), 404, "HEAD"));
  EXPECT_EQ(conclude(), verdict::fail);
}

} // namespace
} // namespace s3fault::audit
