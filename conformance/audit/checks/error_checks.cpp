// Error statuses, codes and the XML shape (docs/contract.md, "Errors").
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"

#include <pugixml.hpp>

namespace s3fault::audit {
namespace {

std::string missing_key(check_context& ctx) {
  return ctx.fixtures().prefix + "no-such-key";
}
std::string missing_bucket(check_context& ctx) {
  return ctx.fixtures().bucket + "-absent";
}

client::response get_missing_key(check_context& ctx) {
  return ctx.get_key(ctx.fixtures().bucket, missing_key(ctx));
}

/// The text of child `name` of the document's <Error> root, or nullopt.
std::optional<std::string> error_field(const std::string& body, const char* name) {
  pugi::xml_document document;
  if (!document.load_buffer(body.data(), body.size())) {
    return std::nullopt;
  }
  const auto root = document.child("Error");
  if (!root || !root.child(name)) {
    return std::nullopt;
  }
  return std::string(root.child(name).text().as_string());
}

void check_no_such_key(check_context& ctx) {
  ctx.expect_error(get_missing_key(ctx), 404, "NoSuchKey", "GET of a missing key");
}

void check_no_such_bucket(check_context& ctx) {
  ctx.expect_error(ctx.get_key(missing_bucket(ctx), "key"), 404, "NoSuchBucket",
                   "GET in a missing bucket");
}

void check_xml_shape(check_context& ctx) {
  const auto missing = get_missing_key(ctx);
  pugi::xml_document document;
  const auto parsed = document.load_buffer(missing.body.data(), missing.body.size());
  ctx.expect(static_cast<bool>(parsed), "an XML body",
             parsed ? "an XML body"
                    : "not XML (" + std::string(parsed.description()) +
                          "): " + missing.body.substr(0, 80));
  const auto root = document.document_element();
  ctx.expect(std::string_view(root.name()) == "Error", "root element <Error>",
             std::string("root element <") + root.name() + ">");
  const auto code = error_field(missing.body, "Code");
  ctx.expect(code && !code->empty(), "a non-empty <Code>",
             code ? "<Code>" + *code : std::string("no <Code>"));
  const auto message = error_field(missing.body, "Message");
  ctx.expect(message.has_value(), "a <Message>",
             message ? "<Message>" + *message : std::string("no <Message>"));
}

void check_message_text(check_context& ctx) {
  const auto missing = get_missing_key(ctx);
  const auto message = error_field(missing.body, "Message");
  ctx.expect(message && !message->empty(), "a <Message> that says what went wrong",
             message
                 ? (message->empty() ? std::string("an empty <Message>") : "<Message>" + *message)
                 : std::string("no <Message>"));
}

void check_content_type(check_context& ctx) {
  const auto missing = get_missing_key(ctx);
  const std::string type(missing.header("Content-Type").value_or(""));
  ctx.expect(type.rfind("application/xml", 0) == 0, "Content-Type: application/xml",
             type.empty() ? "no Content-Type" : "Content-Type: " + type);
}

void check_request_id(check_context& ctx) {
  const auto missing = get_missing_key(ctx);
  const auto id = error_field(missing.body, "RequestId");
  ctx.expect(id && !id->empty(), "a non-empty <RequestId>",
             id ? "<RequestId>" + *id : std::string("no <RequestId>"));
}

void check_resource(check_context& ctx) {
  const auto missing = get_missing_key(ctx);
  const auto resource = error_field(missing.body, "Resource");
  ctx.expect(resource && !resource->empty(), "a non-empty <Resource>",
             resource ? "<Resource>" + *resource : std::string("no <Resource>"));
}

void check_head_no_body(check_context& ctx) {
  ctx.expect_head_error(ctx.head_key(ctx.fixtures().bucket, missing_key(ctx)), 404,
                        "HEAD of a missing key");
}

void check_head_no_such_bucket(check_context& ctx) {
  ctx.expect_head_error(ctx.head_key(missing_bucket(ctx), "key"), 404, "HEAD in a missing bucket");
}

} // namespace

void add_error_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back({std::move(id), "error", std::move(title), strength, std::move(clause), run});
  };
  add("error.no-such-key", "A missing key answers 404 NoSuchKey", level::must, "NoSuchKey 404",
      check_no_such_key);
  add("error.no-such-bucket", "A missing bucket answers 404 NoSuchBucket", level::must,
      "NoSuchBucket 404", check_no_such_bucket);
  add("error.xml-shape", "Error bodies are <Error> with <Code> and <Message>", level::must,
      "<Error><Code>..</Code><Message>..</Message>...</Error>", check_xml_shape);
  add("error.message-text", "Error bodies say in <Message> what went wrong", level::should,
      "<Message>..</Message>", check_message_text);
  add("error.content-type", "Error bodies are sent as application/xml", level::should,
      "Body application/xml", check_content_type);
  add("error.request-id", "Error bodies carry a <RequestId>", level::should,
      "<RequestId>..</RequestId>", check_request_id);
  add("error.resource", "Error bodies carry a <Resource>", level::may, "<Resource>..</Resource>",
      check_resource);
  add("error.head-no-body", "HEAD of a missing key answers 404 with no body", level::must,
      "HEAD errors carry no body", check_head_no_body);
  add("error.head-no-such-bucket", "HEAD in a missing bucket answers 404 with no body", level::must,
      "NoSuchBucket 404; HEAD errors carry no body", check_head_no_such_bucket);
}

} // namespace s3fault::audit
