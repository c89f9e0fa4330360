// GetObject and HeadObject: the object's headers plus what read_plan.hpp decides about
// preconditions, partNumber and Range. The bytes are streamed by the server from the record.
// HEAD and GET tell the same story (docs/contract.md, "Whole-object reads and agreement").
#include "conformance/origin/object_headers.hpp"

#include "conformance/origin/operations.hpp"
#include "conformance/origin/read_plan.hpp"
#include "conformance/origin/xml_render.hpp"
#include "text/text.hpp"

namespace s3fault::origin {
namespace {

object_facts facts_of(const object_record& object) {
  object_facts facts{object.size, object.etag, object.last_modified, {}};
  for (const auto& part : object.parts) {
    facts.part_sizes.push_back(part.size);
  }
  return facts;
}

/// x-amz-checksum-<algo> on reads that asked for it (x-amz-checksum-mode: ENABLED): the whole
/// object's checksum on a whole-object read, the part's on a part read of a multipart object,
/// none on a byte range (it would not describe the bytes sent).
void add_checksum_headers(origin_response& response, const object_record& object,
                          const read_plan& plan) {
  if (!object.checksum) {
    return;
  }
  const std::string name = "x-amz-checksum-" + object.checksum->algorithm;
  if (plan.part_number && object.multipart()) {
    const auto& part = object.parts[*plan.part_number - 1];
    if (!part.checksum.empty()) {
      response.add(name, part.checksum);
    }
    return;
  }
  if (plan.offset == 0 && plan.length == object.size) {
    response.add(name, object.checksum->value);
    response.add("x-amz-checksum-type", object.checksum->type);
  }
}

/// response-* overrides become header values: control characters would break the response.
std::optional<s3_error> check_overrides(const query_params& query) {
  for (const auto& [name, value] : query.items) {
    if (!name.starts_with("response-")) {
      continue;
    }
    for (unsigned char c : value) {
      if (c < 0x20 && c != '\t') {
        return errors::invalid_argument("Header value cannot contain control characters", name,
                                        value);
      }
    }
  }
  return std::nullopt;
}

operation_start read_object(const request_context& context, bool head) {
  const auto& query = context.request.query;
  if (auto error = check_overrides(query)) {
    return answer_error(*error, context);
  }
  const auto part_number = parse_part_number(query.get("partNumber"));
  if (const auto* error = std::get_if<s3_error>(&part_number)) {
    return answer_error(*error, context);
  }
  read_request request;
  request.head = head;
  request.part_number = std::get<std::optional<unsigned>>(part_number);
  if (!head) {
    request.range = context.head.header_copy("range");
  }
  request.if_match = context.head.header_copy("if-match");
  request.if_none_match = context.head.header_copy("if-none-match");
  request.if_modified_since = context.head.header_copy("if-modified-since");
  request.if_unmodified_since = context.head.header_copy("if-unmodified-since");
  // Argument errors come before the lookup, as in S3.
  if (auto error = check_part_number_with_range(request)) {
    return answer_error(*error, context);
  }
  const auto found = find_requested_object(context);
  if (const auto* error = std::get_if<s3_error>(&found)) {
    return answer_error(*error, context);
  }
  const object_ptr& object = std::get<object_ptr>(found);
  const auto planned = plan_read(facts_of(*object), request);
  if (const auto* error = std::get_if<s3_error>(&planned)) {
    return answer_error(*error, context);
  }
  const read_plan& plan = std::get<read_plan>(planned);

  origin_response response;
  response.status = plan.status;
  response.head = head;
  add_version_header(response, context, *object);
  if (plan.status == 304) {
    response.add("ETag", quote_etag(object->etag));
    response.add("Last-Modified", format_http_date(object->last_modified));
    return answer(std::move(response));
  }
  add_object_headers(response, *object, query);
  if (plan.content_range) {
    response.add("Content-Range", *plan.content_range);
  }
  if (plan.parts_count) {
    response.add("x-amz-mp-parts-count", std::to_string(*plan.parts_count));
  }
  const auto mode = context.head.header("x-amz-checksum-mode");
  if (mode && text::iequal(*mode, "ENABLED")) {
    add_checksum_headers(response, *object, plan);
  }
  response.slice = object_slice{object, plan.offset, plan.length};
  return answer(std::move(response));
}

} // namespace

operation_start get_object(const request_context& context) {
  return read_object(context, false);
}

operation_start head_object(const request_context& context) {
  return read_object(context, true);
}

operation_start get_object_tagging(const request_context& context) {
  const auto found = find_requested_object(context);
  if (const auto* error = std::get_if<s3_error>(&found)) {
    return answer_error(*error, context);
  }
  return answer(xml_answer(render_empty_tagging()));
}

operation_start get_acl(const request_context& context) {
  if (context.request.key.empty()) {
    if (!context.store.has_bucket(context.request.bucket)) {
      return answer_error(errors::no_such_bucket(context.request.bucket), context);
    }
  } else {
    const auto found = context.store.find_object(context.request.bucket, context.request.key);
    if (const auto* error = std::get_if<s3_error>(&found)) {
      return answer_error(*error, context);
    }
  }
  return answer(xml_answer(render_owner_acl(context.bucket_owner())));
}

} // namespace s3fault::origin
