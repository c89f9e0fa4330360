// Every action's parameters: good ones build the action and come back from to_json() (which
// parses again to the same thing); bad ones give exactly the expected messages.
#include "action_test_support.hpp"

#include "s3_errors/s3_error_codes.hpp"

#include <gtest/gtest.h>

using namespace s3fault::faults;
using namespace s3fault::faults::testing;
using nlohmann::json;

namespace {

struct params_case {
  const char* type;
  const char* params;   // JSON
  const char* expected; // good: to_json() without "type"; bad: nullptr
  std::vector<std::string> errors = {};
};

std::ostream& operator<<(std::ostream& out, const params_case& c) {
  return out << c.type << " " << c.params;
}

std::string known_codes() {
  std::string out;
  for (const auto& entry : s3fault::s3_errors::s3_error_codes()) {
    out += (out.empty() ? "" : ", ") + std::string(entry.code);
  }
  return out;
}

class ActionParams : public ::testing::TestWithParam<params_case> {};

} // namespace

TEST_P(ActionParams, Table) {
  const params_case& c = GetParam();
  const auto parsed = parse_action(c.type, json::parse(c.params));
  if (c.expected == nullptr) {
    EXPECT_EQ(parsed.action, nullptr);
    EXPECT_EQ(parsed.errors, c.errors);
    return;
  }
  ASSERT_NE(parsed.action, nullptr) << ::testing::PrintToString(parsed.errors);
  EXPECT_TRUE(parsed.errors.empty());
  json expected = json::parse(c.expected);
  expected["type"] = c.type;
  const json written = parsed.action->to_json();
  EXPECT_EQ(written, expected) << written.dump();
  EXPECT_EQ(parsed.action->type(), c.type);

  // Round trip, through text as the admin API and logs would carry it.
  const auto again = parse_action(c.type, json::parse(written.dump()));
  ASSERT_NE(again.action, nullptr) << ::testing::PrintToString(again.errors);
  EXPECT_EQ(again.action->to_json(), written);
  EXPECT_EQ(again.action->phase(), parsed.action->phase());
}

INSTANTIATE_TEST_SUITE_P(
    BeforeStore, ActionParams,
    ::testing::Values(
        params_case{"delay", R"({"duration": "250ms"})", R"({"duration": "250ms"})"},
        params_case{"delay", R"({"duration": 2, "jitter": "500ms"})",
                    R"({"duration": "2s", "jitter": "500ms"})"},
        params_case{"delay", R"({"type": "delay", "duration": "1.5s", "jitter": 0})",
                    R"({"duration": "1500ms"})"},
        params_case{"delay", "{}", nullptr, {"duration: missing (must be a duration like 250ms)"}},
        params_case{"delay",
                    R"({"duration": "soon"})",
                    nullptr,
                    {R"(duration: must be a duration like 250ms (got "soon"))"}},
        params_case{"delay",
                    R"({"duration": -1})",
                    nullptr,
                    {"duration: must be a duration like 250ms (got -1)"}},
        params_case{"delay",
                    R"({"duration": "1s", "jitter": "2s"})",
                    nullptr,
                    {R"(jitter: must be at most the duration 1s (got "2s"))"}},
        params_case{"delay",
                    R"({"duration": "1s", "colour": "red"})",
                    nullptr,
                    {"colour: unknown parameter (delay takes duration, jitter)"}},
        params_case{"delay",
                    R"("1s")",
                    nullptr,
                    {R"(parameters: must be an object (got "1s"))",
                     "duration: missing (must be a duration like 250ms)"}},

        params_case{"error", R"({"code": "SlowDown"})", R"({"code": "SlowDown"})"},
        params_case{"error",
                    R"({"code": "InternalError", "status": 503, "message": "busy",
                        "retry_after": 5})",
                    R"({"code": "InternalError", "status": 503, "message": "busy",
                        "retry_after": 5})"},
        params_case{"error", R"({"code": "MyStoreError", "status": "599"})",
                    R"({"code": "MyStoreError", "status": 599})"},
        params_case{"error", R"({"code": "SlowDown", "retry_after": "2m"})",
                    R"({"code": "SlowDown", "retry_after": 120})"},
        params_case{
            "error", "{}", nullptr, {"code: missing (must be an S3 error code like SlowDown)"}},
        params_case{"error",
                    R"({"code": "Slow Down"})",
                    nullptr,
                    {R"(code: must be an S3 error code like SlowDown (got "Slow Down"))"}},
        params_case{"error",
                    R"({"code": "NoSuchThing"})",
                    nullptr,
                    {"code: unknown S3 error code \"NoSuchThing\" (give a status with it, or use "
                     "one of " +
                     known_codes() + ")"}},
        params_case{"error",
                    R"({"code": "SlowDown", "status": 700})",
                    nullptr,
                    {"status: must be a final HTTP status from 200 to 599 (1xx are interim "
                     "responses) (got 700)"}},
        params_case{
            "error",
            R"({"code": "SlowDown", "retry_after": "1.5s"})",
            nullptr,
            {R"(retry_after: must be a whole number of seconds like 5 or "2m" (got "1.5s"))"}},
        params_case{
            "error",
            R"({"code": "SlowDown", "status": "x", "retry_after": "soon"})",
            nullptr,
            {R"(status: must be a final HTTP status from 200 to 599 (1xx are interim responses) (got "x"))",
             R"(retry_after: must be a duration like 250ms (got "soon"))"}},

        params_case{"forward-then-error", R"({"code": "InternalError"})",
                    R"({"code": "InternalError"})"},
        params_case{"forward-then-error",
                    R"({"code": "SlowDown", "colour": 1})",
                    nullptr,
                    {"colour: unknown parameter (forward-then-error takes code, status, message, "
                     "retry_after)"}},

        params_case{"reset", "{}", "{}"}, params_case{"reset", "null", "{}"},
        params_case{"reset",
                    R"({"after": 1})",
                    nullptr,
                    {"after: unknown parameter (reset takes no parameters)"}},
        params_case{"hang", R"({"type": "hang"})", "{}"},
        params_case{"hang",
                    R"({"for": "1s"})",
                    nullptr,
                    {"for: unknown parameter (hang takes no parameters)"}}));

INSTANTIATE_TEST_SUITE_P(
    ResponseHead, ActionParams,
    ::testing::Values(
        params_case{"strip-header", R"({"name": "x-amz-mp-parts-count"})",
                    R"({"name": "x-amz-mp-parts-count"})"},
        params_case{
            "strip-header",
            R"({"name": "bad header"})",
            nullptr,
            {R"(name: must be a header name like x-amz-mp-parts-count (got "bad header"))"}},
        params_case{"strip-header",
                    "{}",
                    nullptr,
                    {"name: missing (must be a header name like x-amz-mp-parts-count)"}},
        params_case{"set-header", R"({"name": "x-amz-mp-parts-count", "value": "1"})",
                    R"({"name": "x-amz-mp-parts-count", "value": "1"})"},
        params_case{"set-header", R"({"name": "ETag", "value": 3})",
                    R"({"name": "ETag", "value": "3"})"},
        params_case{"set-header", R"({"name": "x-empty", "value": ""})",
                    R"({"name": "x-empty", "value": ""})"},
        params_case{"set-header",
                    R"({"name": "x-a", "value": "a\r\nb"})",
                    nullptr,
                    {R"(value: must be a header value without control characters (got "a\r\nb"))"}},
        params_case{"set-header",
                    R"({"name": "x-a"})",
                    nullptr,
                    {"value: missing (must be a header value)"}},
        params_case{"set-header",
                    R"({"name": "Content-Length", "value": "5"})",
                    nullptr,
                    {"name: content-length frames the body, and a changed one desynchronises the "
                     "connection (the client waits for bytes that never come, or reads the next "
                     "response as body); use truncate (mode=consistent for a short body that "
                     "looks complete, mode=close for a short read)"}},
        params_case{"set-header",
                    R"({"name": "transfer-encoding", "value": "chunked"})",
                    nullptr,
                    {"name: transfer-encoding frames the body, and a changed one desynchronises "
                     "the connection (the client waits for bytes that never come, or reads the "
                     "next response as body); use truncate (mode=consistent for a short body "
                     "that looks complete, mode=close for a short read)"}},
        params_case{"set-header",
                    R"({"name": "Connection", "value": "close"})",
                    nullptr,
                    {"name: connection is hop-by-hop: the proxy sets it for each connection and "
                     "never forwards it"}},
        params_case{"strip-header",
                    R"({"name": "CONTENT-LENGTH"})",
                    nullptr,
                    {"name: content-length frames the body, and a changed one desynchronises the "
                     "connection (the client waits for bytes that never come, or reads the next "
                     "response as body); use truncate (mode=consistent for a short body that "
                     "looks complete, mode=close for a short read)"}},
        params_case{"strip-header", R"({"name": "Content-Range"})", R"({"name": "Content-Range"})"},
        params_case{"set-status", R"({"code": 500})", R"({"code": 500})"},
        params_case{"set-status",
                    R"({"code": 101})",
                    nullptr,
                    {"code: must be a final HTTP status from 200 to 599 (1xx are interim "
                     "responses) (got 101)"}},
        params_case{"set-status", R"({"code": "404"})", R"({"code": 404})"},
        // The one whole-number rule: a JSON number by its value, text by its digits.
        params_case{"set-status", R"({"code": 404.0})", R"({"code": 404})"},
        params_case{"set-status",
                    R"({"code": " 404"})",
                    nullptr,
                    {"code: must be a final HTTP status from 200 to 599 (1xx are interim "
                     "responses) (got \" 404\")"}},
        params_case{"set-status",
                    R"({"code": 99})",
                    nullptr,
                    {"code: must be a final HTTP status from 200 to 599 (1xx are interim "
                     "responses) (got 99)"}},
        params_case{
            "set-status",
            R"({"code": "teapot"})",
            nullptr,
            {R"(code: must be a final HTTP status from 200 to 599 (1xx are interim responses) (got "teapot"))"}},
        params_case{"first-byte-delay", R"({"duration": "3s"})", R"({"duration": "3s"})"},
        params_case{"first-byte-delay",
                    "{}",
                    nullptr,
                    {"duration: missing (must be a duration like 250ms)"}}));

INSTANTIATE_TEST_SUITE_P(
    ResponseBody, ActionParams,
    ::testing::Values(
        params_case{"truncate", R"({"at": 1000})", R"({"at": 1000, "mode": "close"})"},
        params_case{"truncate", R"({"at": "64KiB", "mode": "consistent"})",
                    R"({"at": 65536, "mode": "consistent"})"},
        params_case{"truncate", R"({"at": "50%"})", R"({"at": "50%", "mode": "close"})"},
        params_case{"truncate", R"({"at": "50%", "mode": "length-only"})",
                    R"({"at": "50%", "mode": "length-only"})"},
        params_case{"truncate", R"({"at": 0, "mode": "length-only"})",
                    R"({"at": 0, "mode": "length-only"})"},
        params_case{"truncate", R"({"at": 0.25})", R"({"at": "25%", "mode": "close"})"},
        params_case{"truncate", R"({"at": "0.5"})", R"({"at": "50%", "mode": "close"})"},
        params_case{"truncate",
                    R"({"at": "abc"})",
                    nullptr,
                    {R"(at: must be a size like 1MiB or a fraction like 50% (got "abc"))"}},
        params_case{"truncate",
                    R"({"at": "150%"})",
                    nullptr,
                    {R"(at: must be a size like 1MiB or a fraction like 50% (got "150%"))"}},
        params_case{"truncate",
                    R"({"at": "1MiB", "mode": "sideways"})",
                    nullptr,
                    {R"(mode: must be one of close, consistent, length-only (got "sideways"))"}},
        params_case{"truncate",
                    R"({"at": "1MiB", "mode": "length_only"})",
                    nullptr,
                    {R"(mode: must be one of close, consistent, length-only (got "length_only"))"}},
        params_case{"truncate",
                    "{}",
                    nullptr,
                    {"at: missing (must be a size like 1MiB or a fraction like 50%)"}},

        params_case{"corrupt", R"({"offsets": [0, "1KiB", 10]})", R"({"offsets": [0, 10, 1024]})"},
        params_case{"corrupt", R"({"offsets": "5,1,5"})", R"({"offsets": [1, 5]})"},
        params_case{"corrupt", R"({"offsets": 7})", R"({"offsets": [7]})"},
        params_case{"corrupt", R"({"count": 3})", R"({"count": 3})"},
        params_case{"corrupt", R"({"count": "3"})", R"({"count": 3})"},
        params_case{"corrupt",
                    "{}",
                    nullptr,
                    {"offsets: missing (give offsets, a list of sizes like [0, 1MiB], or count, "
                     "a whole number of random offsets)"}},
        params_case{"corrupt",
                    R"({"offsets": [1], "count": 2})",
                    nullptr,
                    {"offsets: give offsets or count, not both"}},
        params_case{"corrupt",
                    R"({"offsets": []})",
                    nullptr,
                    {R"(offsets: must be a list of sizes like [0, 1MiB] or "0,1MiB" (got []))"}},
        params_case{
            "corrupt",
            R"({"offsets": [1, "x"]})",
            nullptr,
            {R"(offsets: must be a list of sizes like [0, 1MiB] or "0,1MiB" (got [1,"x"]))"}},
        params_case{"corrupt",
                    R"({"count": 0})",
                    nullptr,
                    {"count: must be a whole number from 1 to 1000000 (got 0)"}},

        params_case{"throttle", R"({"rate": "1MiB/s"})", R"({"rate": "1MiB/s"})"},
        params_case{"throttle", R"({"rate": 100000})", R"({"rate": "100000B/s"})"},
        params_case{"throttle", R"({"rate": "500KiB/s"})", R"({"rate": "500KiB/s"})"},
        params_case{"throttle", R"({"rate": "10KB/s"})", R"({"rate": "10000B/s"})"},
        params_case{"throttle",
                    R"({"rate": "fast"})",
                    nullptr,
                    {R"(rate: must be a rate like 1MiB/s (got "fast"))"}},
        params_case{
            "throttle", R"({"rate": 0})", nullptr, {"rate: must be a rate like 1MiB/s (got 0)"}},
        params_case{"throttle",
                    R"({"rate": "1MiB"})",
                    nullptr,
                    {R"(rate: must be a rate like 1MiB/s (got "1MiB"))"}},

        params_case{"stall", R"({"after": "1MiB", "duration": "2s"})",
                    R"({"after": 1048576, "duration": "2s"})"},
        params_case{"stall",
                    R"({"after": "1MiB"})",
                    nullptr,
                    {"duration: missing (must be a duration like 250ms)"}},
        params_case{"stall",
                    R"({"after": "x", "duration": "y"})",
                    nullptr,
                    {R"(after: must be a size like 1MiB (got "x"))",
                     R"(duration: must be a duration like 250ms (got "y"))"}},

        params_case{"reset-after", R"({"bytes": "10KB"})", R"({"bytes": 10000})"},
        params_case{"reset-after", R"({"bytes": 1000.0})", R"({"bytes": 1000})"},
        params_case{"reset-after", R"({"bytes": "50%"})", R"({"bytes": "50%"})"},
        params_case{"reset-after", R"({"bytes": 0.25})", R"({"bytes": "25%"})"},
        params_case{"reset-after", R"({"bytes": "100%"})", R"({"bytes": "100%"})"},
        params_case{"reset-after",
                    R"({"bytes": -5})",
                    nullptr,
                    {"bytes: must be a size like 1MiB or a fraction like 50% (got -5)"}},
        params_case{"reset-after",
                    R"({"bytes": "150%"})",
                    nullptr,
                    {R"(bytes: must be a size like 1MiB or a fraction like 50% (got "150%"))"}},
        params_case{"reset-after",
                    "{}",
                    nullptr,
                    {"bytes: missing (must be a size like 1MiB or a fraction like 50%)"}}));

INSTANTIATE_TEST_SUITE_P(
    RequestBody, ActionParams,
    ::testing::Values(
        params_case{"request-throttle", R"({"rate": "64KiB/s"})", R"({"rate": "64KiB/s"})"},
        params_case{
            "request-throttle", "{}", nullptr, {"rate: missing (must be a rate like 1MiB/s)"}},
        params_case{"request-reset-after", R"({"bytes": "1MiB"})", R"({"bytes": 1048576})"},
        params_case{"request-reset-after", R"({"bytes": "12.5%"})", R"({"bytes": "12.5%"})"},
        params_case{"request-reset-after",
                    R"({"bytes": "lots", "rate": 1})",
                    nullptr,
                    {"rate: unknown parameter (request-reset-after takes bytes)",
                     R"(bytes: must be a size like 1MiB or a fraction like 50% (got "lots"))"}}));

INSTANTIATE_TEST_SUITE_P(
    ResponseDocument, ActionParams,
    ::testing::Values(
        params_case{"xml-set", R"({"path": "CompleteMultipartUploadResult/ETag", "value": ""})",
                    R"({"path": "CompleteMultipartUploadResult/ETag", "value": ""})"},
        params_case{"xml-set", R"({"path": "Error", "value": 42})",
                    R"({"path": "Error", "value": "42"})"},
        params_case{"xml-set", R"({"path": "a.b/_c-d/e9", "value": "x < y & \"z\"\ttab"})",
                    R"({"path": "a.b/_c-d/e9", "value": "x < y & \"z\"\ttab"})"},
        params_case{"xml-set",
                    "{}",
                    nullptr,
                    {"path: missing (must be element names from the root down, separated by /, "
                     "like CompleteMultipartUploadResult/ETag)",
                     R"(value: missing (must be the element's new text (may be "")))"}},
        params_case{"xml-set",
                    R"({"path": "Error//Message", "value": "x"})",
                    nullptr,
                    {"path: must be element names from the root down, separated by /, like "
                     R"(CompleteMultipartUploadResult/ETag (got "Error//Message"))"}},
        params_case{"xml-set",
                    R"({"path": "/Error/Message", "value": "x", "colour": 1})",
                    nullptr,
                    {"colour: unknown parameter (xml-set takes path, value)",
                     "path: must be element names from the root down, separated by /, like "
                     R"(CompleteMultipartUploadResult/ETag (got "/Error/Message"))"}},
        params_case{"xml-set",
                    R"({"path": "s3:Error/Message", "value": "x"})",
                    nullptr,
                    {"path: must be element names from the root down, separated by /, like "
                     R"(CompleteMultipartUploadResult/ETag (got "s3:Error/Message"))"}},
        params_case{"xml-set",
                    R"({"path": "Error/1st", "value": "x"})",
                    nullptr,
                    {"path: must be element names from the root down, separated by /, like "
                     R"(CompleteMultipartUploadResult/ETag (got "Error/1st"))"}},
        params_case{"xml-set",
                    R"({"path": ["Error"], "value": "a\u0001b"})",
                    nullptr,
                    {"path: must be element names from the root down, separated by /, like "
                     R"(CompleteMultipartUploadResult/ETag (got ["Error"]))",
                     "value: must be UTF-8 text without control characters other than tab, CR "
                     R"(and LF (got "a\u0001b"))"}},
        params_case{"xml-remove", R"({"path": "Error/Resource"})", R"({"path": "Error/Resource"})"},
        params_case{"xml-remove",
                    R"({"path": "Error"})",
                    nullptr,
                    {R"(path: names the root element "Error", and a body without its root is no )"
                     "document (name an element inside it, like Error/Resource; to replace the "
                     "whole answer use replace-with-error)"}},
        params_case{"xml-remove",
                    R"({"path": "Error/Resource/"})",
                    nullptr,
                    {"path: must be element names from the root down, separated by /, like "
                     R"(CompleteMultipartUploadResult/ETag (got "Error/Resource/"))"}},
        params_case{"xml-remove",
                    R"({"path": "Error/Resource", "value": ""})",
                    nullptr,
                    {"value: unknown parameter (xml-remove takes path)"}},
        params_case{"replace-with-error", R"({"code": "InternalError"})",
                    R"({"code": "InternalError"})"},
        params_case{"replace-with-error",
                    R"({"code": "InternalError", "status": 500, "message": "", "retry_after": 1})",
                    R"({"code": "InternalError", "status": 500, "message": "", "retry_after": 1})"},
        params_case{"replace-with-error", R"({"code": "StoreSpecific", "status": 200})",
                    R"({"code": "StoreSpecific", "status": 200})"},
        params_case{"replace-with-error",
                    R"({"code": "InternalError", "status": 100, "path": "Error"})",
                    nullptr,
                    {"path: unknown parameter (replace-with-error takes code, status, message, "
                     "retry_after)",
                     "status: must be a final HTTP status from 200 to 599 (1xx are interim "
                     "responses) (got 100)"}},
        params_case{"replace-with-error",
                    "{}",
                    nullptr,
                    {"code: missing (must be an S3 error code like SlowDown)"}}));
