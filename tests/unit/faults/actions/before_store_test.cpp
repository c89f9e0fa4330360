#include "action_test_support.hpp"

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <algorithm>

using namespace s3fault::faults;
using namespace s3fault::faults::testing;
using namespace std::chrono_literals;

namespace {

s3_request object_request(s3_operation operation, std::string bucket = "bucket",
                          std::string key = "dir/object.bin") {
  s3_request request;
  request.operation = operation;
  request.bucket = std::move(bucket);
  request.key = std::move(key);
  return request;
}

before_store_effect apply(const fault_action& action, const s3_request& request,
                          random_engine::result_type seed = 1) {
  before_store_effect effect;
  random_engine random(seed);
  action.apply_before_store(effect, request, random);
  return effect;
}

std::optional<std::string> header(const local_response& response, std::string_view name) {
  for (const auto& [field, value] : response.headers) {
    if (field == name) {
      return value;
    }
  }
  return std::nullopt;
}

/// The parts of an S3 error body, read back with an XML parser.
struct error_xml {
  std::string code, message, resource, request_id;
};

std::optional<error_xml> read_error_xml(const std::string& body) {
  pugi::xml_document doc;
  if (!doc.load_string(body.c_str())) {
    return std::nullopt;
  }
  const auto error = doc.child("Error");
  if (!error) {
    return std::nullopt;
  }
  return error_xml{error.child_value("Code"), error.child_value("Message"),
                   error.child_value("Resource"), error.child_value("RequestId")};
}

} // namespace

TEST(ErrorAction, AnswersWithS3ErrorXml) {
  const auto action = make_action("error", R"({"code": "SlowDown"})");
  const auto effect = apply(*action, object_request(s3_operation::GetObject));
  ASSERT_TRUE(effect.respond);
  EXPECT_FALSE(effect.respond_after_store);
  EXPECT_FALSE(effect.end_without_answer);
  const local_response& response = *effect.respond;
  EXPECT_EQ(response.status, 503u);
  EXPECT_EQ(header(response, "Content-Type"), "application/xml");
  EXPECT_FALSE(header(response, "Retry-After"));
  const auto xml = read_error_xml(response.body);
  ASSERT_TRUE(xml) << response.body;
  EXPECT_EQ(xml->code, "SlowDown");
  EXPECT_EQ(xml->message, "Please reduce your request rate.");
  EXPECT_EQ(xml->resource, "/bucket/dir/object.bin");
  EXPECT_EQ(header(response, "x-amz-request-id"), xml->request_id);
  EXPECT_EQ(xml->request_id.size(), 16u);
}

TEST(ErrorAction, StatusAndCodeOfEachKnownCode) {
  for (const auto& [code, status] :
       std::vector<std::pair<std::string, unsigned>>{{"InternalError", 500},
                                                     {"NoSuchKey", 404},
                                                     {"InvalidPartNumber", 416},
                                                     {"PreconditionFailed", 412},
                                                     {"AccessDenied", 403}}) {
    const auto action = make_action("error", R"({"code": ")" + code + R"("})");
    const auto effect = apply(*action, object_request(s3_operation::GetObject));
    ASSERT_TRUE(effect.respond);
    EXPECT_EQ(effect.respond->status, status) << code;
    const auto xml = read_error_xml(effect.respond->body);
    ASSERT_TRUE(xml) << code;
    EXPECT_EQ(xml->code, code);
  }
}

TEST(ErrorAction, OverridesAndRetryAfter) {
  const auto action = make_action(
      "error", R"({"code": "InternalError", "status": 503, "message": "a < b", "retry_after": 5})");
  const auto effect = apply(*action, object_request(s3_operation::PutObject));
  ASSERT_TRUE(effect.respond);
  EXPECT_EQ(effect.respond->status, 503u);
  EXPECT_EQ(header(*effect.respond, "Retry-After"), "5");
  const auto xml = read_error_xml(effect.respond->body);
  ASSERT_TRUE(xml);
  EXPECT_EQ(xml->code, "InternalError");
  EXPECT_EQ(xml->message, "a < b");
}

TEST(ErrorAction, CustomCodeWithStatus) {
  const auto action = make_action("error", R"({"code": "XMinioStorageFull", "status": 507})");
  const auto effect = apply(*action, object_request(s3_operation::PutObject));
  ASSERT_TRUE(effect.respond);
  EXPECT_EQ(effect.respond->status, 507u);
  EXPECT_EQ(read_error_xml(effect.respond->body)->code, "XMinioStorageFull");
}

TEST(ErrorAction, HeadGetsStatusAndHeadersButNoBody) {
  const auto action = make_action("error", R"({"code": "NoSuchKey"})");
  for (const auto operation : {s3_operation::HeadObject, s3_operation::HeadBucket}) {
    const auto effect = apply(*action, object_request(operation));
    ASSERT_TRUE(effect.respond);
    EXPECT_EQ(effect.respond->status, 404u);
    EXPECT_TRUE(effect.respond->body.empty());
    EXPECT_EQ(header(*effect.respond, "Content-Type"), "application/xml");
    EXPECT_TRUE(header(*effect.respond, "x-amz-request-id"));
  }
}

TEST(ErrorAction, ResourceOfBucketAndServiceRequests) {
  const auto action = make_action("error", R"({"code": "AccessDenied"})");
  const auto bucket = apply(*action, object_request(s3_operation::ListObjectsV2, "logs", ""));
  EXPECT_EQ(read_error_xml(bucket.respond->body)->resource, "/logs");
  const auto service = apply(*action, object_request(s3_operation::ListBuckets, "", ""));
  EXPECT_EQ(read_error_xml(service.respond->body)->resource, "/");
}

TEST(ErrorAction, EachAnswerHasItsOwnRequestId) {
  const auto action = make_action("error", R"({"code": "SlowDown"})");
  const auto first = apply(*action, object_request(s3_operation::GetObject));
  const auto second = apply(*action, object_request(s3_operation::GetObject));
  EXPECT_NE(header(*first.respond, "x-amz-request-id"),
            header(*second.respond, "x-amz-request-id"));
}

TEST(ForwardThenErrorAction, AnswersAfterTheStore) {
  const auto action = make_action("forward-then-error", R"({"code": "InternalError"})");
  const auto effect = apply(*action, object_request(s3_operation::PutObject));
  EXPECT_FALSE(effect.respond);
  ASSERT_TRUE(effect.respond_after_store);
  EXPECT_EQ(effect.respond_after_store->status, 500u);
  const auto xml = read_error_xml(effect.respond_after_store->body);
  ASSERT_TRUE(xml);
  EXPECT_EQ(xml->code, "InternalError");
  EXPECT_EQ(xml->message, "We encountered an internal error. Please try again.");

  const auto head = apply(*action, object_request(s3_operation::HeadObject));
  ASSERT_TRUE(head.respond_after_store);
  EXPECT_TRUE(head.respond_after_store->body.empty());
}

TEST(ResetAndHang, EndWithoutAnswerOnly) {
  const auto reset = apply(*make_action("reset", "{}"), object_request(s3_operation::GetObject));
  ASSERT_TRUE(reset.end_without_answer);
  EXPECT_EQ(reset.end_without_answer->how, no_answer::ending::reset);
  EXPECT_FALSE(reset.respond);
  const auto hang = apply(*make_action("hang", "{}"), object_request(s3_operation::GetObject));
  ASSERT_TRUE(hang.end_without_answer);
  EXPECT_EQ(hang.end_without_answer->how, no_answer::ending::silence);
  EXPECT_EQ(hang.end_without_answer->silence_limit, std::chrono::hours(1));
  EXPECT_FALSE(hang.respond);
}

TEST(DelayAction, FixedDurationAddsUp) {
  const auto action = make_action("delay", R"({"duration": "250ms"})");
  before_store_effect effect;
  effect.delay = 1s;
  random_engine random(7);
  action->apply_before_store(effect, object_request(s3_operation::GetObject), random);
  EXPECT_EQ(effect.delay, 1250ms);
}

TEST(DelayAction, JitterStaysWithinBoundsAndCoversBothSides) {
  const auto action = make_action("delay", R"({"duration": "1s", "jitter": "200ms"})");
  random_engine random(42);
  clock::duration lowest = clock::duration::max();
  clock::duration highest = clock::duration::min();
  for (int i = 0; i < 2000; ++i) {
    before_store_effect effect;
    action->apply_before_store(effect, object_request(s3_operation::GetObject), random);
    EXPECT_GE(effect.delay, 800ms);
    EXPECT_LE(effect.delay, 1200ms);
    lowest = std::min(lowest, effect.delay);
    highest = std::max(highest, effect.delay);
  }
  EXPECT_LT(lowest, 820ms);
  EXPECT_GT(highest, 1180ms);
}

TEST(DelayAction, JitterIsDeterministicForASeed) {
  const auto action = make_action("delay", R"({"duration": "1s", "jitter": "500ms"})");
  const auto draws = [&](random_engine::result_type seed) {
    random_engine random(seed);
    std::vector<clock::duration> out;
    for (int i = 0; i < 20; ++i) {
      before_store_effect effect;
      action->apply_before_store(effect, object_request(s3_operation::GetObject), random);
      out.push_back(effect.delay);
    }
    return out;
  };
  EXPECT_EQ(draws(1234), draws(1234));
  EXPECT_NE(draws(1234), draws(4321));
}
