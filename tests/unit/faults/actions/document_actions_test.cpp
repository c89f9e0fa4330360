// Document actions (xml-set, xml-remove, replace-with-error) on a store's whole response: the
// exact body they leave, byte for byte, and the bodies they must leave exactly as they came
// (not XML, another root, no such element, the same text, a HEAD).
#include "../fake_response_head.hpp"
#include "action_test_support.hpp"
#include "faults/response_document.hpp"

#include <gtest/gtest.h>
#include <pugixml.hpp>

using namespace s3fault::faults;
using namespace s3fault::faults::testing;

namespace {

const std::string declaration = R"(<?xml version="1.0" encoding="UTF-8"?>)";
const std::string complete_result =
    declaration + "\n" +
    R"(<CompleteMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">)"
    "<Location>http://h/b/k</Location><Bucket>b</Bucket><Key>k</Key>"
    "<ETag>&quot;3858f62230ac3c915f300c664312c11f-2&quot;</ETag>"
    "</CompleteMultipartUploadResult>\n";
const std::string error_body = declaration + "<Error><Code>NoSuchKey</Code><Message>The specified "
                                             "key does not exist.</Message><Resource>/b/k"
                                             "</Resource><RequestId>4442587FB7D0A2F9</RequestId>"
                                             "</Error>";

const s3_request complete_request = [] {
  s3_request request;
  request.operation = s3_operation::CompleteMultipartUpload;
  request.bucket = "b";
  request.key = "k";
  return request;
}();

/// What the client would get: the body after the action, and whether it said it changed it.
struct edit_result {
  bool changed = false;
  bool body_changed = false;
  std::string body;
};

edit_result edit(const fault_action& action, const std::string& body, fake_head& head,
                 bool head_request = false) {
  response_document document(head, body, head_request);
  edit_result out;
  out.changed = action.apply_to_document(document, complete_request);
  out.body_changed = document.body_changed();
  out.body = document.take_body();
  return out;
}

edit_result edit(std::string_view type, const std::string& params, const std::string& body) {
  fake_head head;
  return edit(*make_action(type, params), body, head);
}

/// `text` with its first `from` replaced by `to` (which must be there).
std::string with_replaced(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

std::optional<std::string> error_child(const std::string& body, const char* name) {
  pugi::xml_document doc;
  if (!doc.load_string(body.c_str())) {
    return std::nullopt;
  }
  return std::string(doc.child("Error").child_value(name));
}

} // namespace

TEST(XmlSet, EmptiesTheETagOfACompleteResultAndKeepsEveryOtherByte) {
  const auto out = edit("xml-set", R"({"path": "CompleteMultipartUploadResult/ETag", "value": ""})",
                        complete_result);
  EXPECT_TRUE(out.changed);
  EXPECT_TRUE(out.body_changed);
  // The declaration, its line end, the namespace, the other text with its escapes, the final
  // newline: all as the store sent them.
  EXPECT_EQ(out.body, with_replaced(complete_result,
                                    "<ETag>&quot;3858f62230ac3c915f300c664312c11f-2&quot;</ETag>",
                                    "<ETag></ETag>"));
}

TEST(XmlSet, EscapesWhatWouldReadAsMarkup) {
  const auto out =
      edit("xml-set", R"({"path": "Error/Message", "value": "a<b & \"c\"\r"})", error_body);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.body, with_replaced(error_body, "The specified key does not exist.",
                                    "a&lt;b &amp; \"c\"&#13;"));
  EXPECT_EQ(error_child(out.body, "Message"), "a<b & \"c\"\r");
}

TEST(XmlSet, ReplacesChildElementsOfTheElementWithTheText) {
  const auto out = edit("xml-set", R"({"path": "Error", "value": "gone"})", error_body);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.body, declaration + "<Error>gone</Error>");
}

TEST(XmlSet, IgnoresNamespacePrefixesAndTakesTheFirstOfSeveral) {
  const std::string body =
      R"(<s3:ListPartsResult xmlns:s3="urn:x"><s3:Part><s3:ETag>"1"</s3:ETag>)"
      R"(</s3:Part><s3:Part><s3:ETag>"2"</s3:ETag></s3:Part></s3:ListPartsResult>)";
  const auto out = edit("xml-set", R"({"path": "ListPartsResult/Part/ETag", "value": "x"})", body);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.body, with_replaced(body, R"(<s3:ETag>"1"</s3:ETag>)", "<s3:ETag>x</s3:ETag>"));
}

TEST(XmlSet, ChangesNothingWhenTheElementAlreadySaysThat) {
  // Compared as text: &quot; and a literal quote say the same.
  for (const char* value : {R"("3858f62230ac3c915f300c664312c11f-2")",
                            R"(&quot;3858f62230ac3c915f300c664312c11f-2&quot;)"}) {
    SCOPED_TRACE(value);
    const std::string body =
        with_replaced(complete_result, "&quot;3858f62230ac3c915f300c664312c11f-2&quot;", value);
    const auto out = edit(
        "xml-set",
        R"({"path": "CompleteMultipartUploadResult/ETag", "value": "\"3858f62230ac3c915f300c664312c11f-2\""})",
        body);
    EXPECT_FALSE(out.changed);
    EXPECT_FALSE(out.body_changed);
    EXPECT_EQ(out.body, body);
  }
  const auto empty = edit("xml-set", R"({"path": "Error/Message", "value": ""})",
                          with_replaced(error_body, "The specified key does not exist.", ""));
  EXPECT_FALSE(empty.changed);
}

TEST(XmlSet, ChangesNothingWithoutTheElementOrOutsideXml) {
  const std::string params = R"({"path": "Error/Resource", "value": "/x"})";
  for (const std::string& body : {
           with_replaced(error_body, "<Resource>/b/k</Resource>", ""), // no such element
           complete_result,                                            // another root
           std::string(),                                              // no body
           std::string(R"({"Error": {"Resource": "/b/k"}})"),          // JSON
           std::string("Resource: /b/k\n"),                            // text
           error_body.substr(0, error_body.size() - 3),                // cut short
           error_body + "<Error><Resource>/b/k</Resource></Error>",    // two roots
       }) {
    SCOPED_TRACE(body);
    const auto out = edit("xml-set", params, body);
    EXPECT_FALSE(out.changed);
    EXPECT_FALSE(out.body_changed);
    EXPECT_EQ(out.body, body);
  }
}

TEST(XmlSet, KeepsCommentsBlanksAndAttributesAsSent) {
  const std::string body = "\xEF\xBB\xBF<!-- before -->\n<Error a='say \"hi\"' b=\"1\">\n"
                           "  <!-- inside --><Code>X</Code>\n  <Empty/>\n</Error>\n\n";
  const auto out = edit("xml-set", R"({"path": "Error/Code", "value": "Y"})", body);
  EXPECT_TRUE(out.changed);
  // Attributes come back between double quotes; an element without children with both tags.
  EXPECT_EQ(out.body, "\xEF\xBB\xBF<!-- before -->\n<Error a=\"say &quot;hi&quot;\" b=\"1\">\n"
                      "  <!-- inside --><Code>Y</Code>\n  <Empty></Empty>\n</Error>\n\n");
}

TEST(XmlSet, OnAHeadRequestFindsNoBody) {
  fake_head head;
  const auto out = edit(*make_action("xml-set", R"({"path": "Error/Code", "value": "Y"})"),
                        error_body, head, true);
  EXPECT_FALSE(out.changed);
  EXPECT_EQ(out.body, "");
}

TEST(XmlSet, SurvivesADeeplyNestedBody) {
  std::string body;
  for (int i = 0; i < 100000; ++i) {
    body += "<a>";
  }
  for (int i = 0; i < 100000; ++i) {
    body += "</a>";
  }
  const auto out = edit("xml-set", R"({"path": "a/a/a", "value": "x"})", body);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.body, "<a><a><a>x</a></a></a>");
}

TEST(XmlRemove, RemovesTheResourceOfAnErrorAndKeepsEveryOtherByte) {
  const auto out = edit("xml-remove", R"({"path": "Error/Resource"})", error_body);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.body, with_replaced(error_body, "<Resource>/b/k</Resource>", ""));
}

TEST(XmlRemove, TakesTheElementsLineInAnIndentedBody) {
  const std::string body = declaration + "\n<Error>\n  <Code>NoSuchKey</Code>\n  <Resource>/b/k"
                                         "</Resource>\n  <RequestId>1</RequestId>\n</Error>\n";
  const auto out = edit("xml-remove", R"({"path": "Error/Resource"})", body);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.body, with_replaced(body, "\n  <Resource>/b/k</Resource>", ""));
}

TEST(XmlRemove, ChangesNothingWithoutTheElement) {
  for (const std::string& body : {with_replaced(error_body, "<Resource>/b/k</Resource>", ""),
                                  complete_result, std::string("not xml")}) {
    const auto out = edit("xml-remove", R"({"path": "Error/Resource"})", body);
    EXPECT_FALSE(out.changed);
    EXPECT_FALSE(out.body_changed);
    EXPECT_EQ(out.body, body);
  }
  // The path goes from the root: a Resource deeper down is another element.
  const std::string nested = "<Error><Detail><Resource>/b/k</Resource></Detail></Error>";
  EXPECT_FALSE(edit("xml-remove", R"({"path": "Error/Resource"})", nested).changed);
  EXPECT_EQ(edit("xml-remove", R"({"path": "Error/Detail/Resource"})", nested).body,
            "<Error><Detail></Detail></Error>");
}

TEST(DocumentActions, EditsInRuleOrderGiveOneBody) {
  fake_head head;
  response_document document(head, error_body, false);
  EXPECT_TRUE(make_action("xml-remove", R"({"path": "Error/Resource"})")
                  ->apply_to_document(document, complete_request));
  EXPECT_TRUE(make_action("xml-set", R"({"path": "Error/Message", "value": ""})")
                  ->apply_to_document(document, complete_request));
  // A second removal finds nothing left to remove.
  EXPECT_FALSE(make_action("xml-remove", R"({"path": "Error/Resource"})")
                   ->apply_to_document(document, complete_request));
  EXPECT_EQ(document.take_body(),
            with_replaced(with_replaced(error_body, "<Resource>/b/k</Resource>", ""),
                          "The specified key does not exist.", ""));
  EXPECT_EQ(head.fields_.size(), 3u); // XML edits leave the head to the proxy's framing
}

TEST(DocumentActions, MayChangeNothingSoTheirRulesCountOnlyWhenTheyDid) {
  for (const auto& [type, params] : std::vector<std::pair<std::string, std::string>>{
           {"xml-set", R"({"path": "Error/Message", "value": ""})"},
           {"xml-remove", R"({"path": "Error/Resource"})"},
           {"replace-with-error", R"({"code": "InternalError"})"}}) {
    const auto action = make_action(type, params);
    EXPECT_EQ(action->phase(), action_phase::response_document) << type;
    EXPECT_TRUE(action->may_change_nothing()) << type;
    fake_head head;
    EXPECT_FALSE(action->apply_to_head(head)) << type;
  }
}

TEST(ReplaceWithError, KeepsTheStoresStatusAndPutsAnErrorBody) {
  fake_head head;
  head.status_ = 200;
  head.set_header("Content-Type", "text/plain");
  head.set_header("Content-Range", "bytes 0-9/10");
  head.set_header("Content-Encoding", "gzip");
  const auto out = edit(*make_action("replace-with-error", R"({"code": "InternalError"})"),
                        complete_result, head);
  EXPECT_TRUE(out.changed);
  EXPECT_TRUE(out.body_changed);
  EXPECT_EQ(head.status(), 200u); // "200 OK" with an Error body
  EXPECT_EQ(head.header("Content-Type"), "application/xml");
  EXPECT_FALSE(head.header("Content-Range"));
  EXPECT_FALSE(head.header("Content-Encoding"));
  EXPECT_EQ(head.header("ETag"), "\"abc-3\""); // the rest of the store's head stays
  const auto request_id = head.header("x-amz-request-id");
  ASSERT_TRUE(request_id);
  EXPECT_EQ(out.body, declaration +
                          "<Error><Code>InternalError</Code><Message>We encountered an "
                          "internal error. Please try again.</Message><Resource>/b/k"
                          "</Resource><RequestId>" +
                          *request_id + "</RequestId></Error>");
}

TEST(ReplaceWithError, TakesTheGivenStatusMessageAndRetryAfter) {
  fake_head head;
  head.status_ = 404;
  const auto out = edit(*make_action("replace-with-error",
                                     R"({"code": "InternalError", "status": 500,
                                          "message": "", "retry_after": 3})"),
                        error_body, head);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(head.status(), 500u);
  EXPECT_EQ(head.header("Retry-After"), "3");
  EXPECT_EQ(error_child(out.body, "Code"), "InternalError");
  EXPECT_EQ(error_child(out.body, "Message"), "");
  EXPECT_EQ(error_child(out.body, "Resource"), "/b/k");
}

TEST(ReplaceWithError, OnAHeadRequestChangesTheHeadOnly) {
  fake_head head;
  head.status_ = 200;
  const auto out =
      edit(*make_action("replace-with-error", R"({"code": "SlowDown"})"), "", head, true);
  EXPECT_TRUE(out.changed);
  EXPECT_EQ(out.body, "");
  EXPECT_EQ(head.status(), 200u);
  EXPECT_EQ(head.header("Content-Type"), "application/xml");
}

TEST(ReplaceWithError, ALaterXmlEditWorksOnTheErrorBody) {
  fake_head head;
  response_document document(head, "not xml at all", false);
  EXPECT_FALSE(make_action("xml-remove", R"({"path": "Error/Resource"})")
                   ->apply_to_document(document, complete_request));
  EXPECT_TRUE(make_action("replace-with-error", R"({"code": "InternalError", "status": 500})")
                  ->apply_to_document(document, complete_request));
  EXPECT_TRUE(make_action("xml-remove", R"({"path": "Error/Resource"})")
                  ->apply_to_document(document, complete_request));
  const std::string body = document.take_body();
  EXPECT_EQ(error_child(body, "Code"), "InternalError");
  EXPECT_EQ(body.find("<Resource>"), std::string::npos);
}

TEST(XmlPath, ParsesStepsAndWritesThemBack) {
  const auto path = parse_xml_path("CompleteMultipartUploadResult/ETag");
  ASSERT_TRUE(path);
  EXPECT_EQ(path->steps, (std::vector<std::string>{"CompleteMultipartUploadResult", "ETag"}));
  EXPECT_EQ(path->text(), "CompleteMultipartUploadResult/ETag");
  for (const char* bad : {"", "/", "a/", "/a", "a//b", "a b", "1a", "a/-b", "p:a", "a/b[1]"}) {
    EXPECT_FALSE(parse_xml_path(bad)) << bad;
  }
}

TEST(XmlText, IsUtf8WithoutControlCharacters) {
  for (const char* good : {"", "plain", "tab\there\r\n", "\xC3\xA9t\xC3\xA9", "\xF0\x9F\x98\x80"}) {
    EXPECT_TRUE(is_xml_text(good)) << good;
  }
  for (const char* bad : {"\x01", "a\x1F", "\xC3", "\xC0\x80", "\xED\xA0\x80", "\xEF\xBF\xBF",
                          "\xF5\x80\x80\x80", "\x80"}) {
    EXPECT_FALSE(is_xml_text(bad)) << ::testing::PrintToString(std::string(bad));
  }
}
