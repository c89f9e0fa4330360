// PutObject, CopyObject, DeleteObject, DeleteObjects.
#include "conformance/origin/copy_source.hpp"

#include "conformance/origin/object_headers.hpp"
#include "conformance/origin/object_reader.hpp"
#include "conformance/origin/operations.hpp"
#include "conformance/origin/payload_receiver.hpp"
#include "conformance/origin/xml_render.hpp"
#include "conformance/origin/xml_requests.hpp"
#include "conformance/s3/hashing.hpp"
#include "text/text.hpp"

#include <algorithm>
#include <array>

namespace s3fault::origin {
namespace {

/// If-Match / If-None-Match on a write (conditional writes), begun when its head arrived.
write_condition write_condition_of(const request_context& context) {
  write_condition condition;
  condition.if_match = context.head.header_copy("if-match");
  condition.if_none_match = context.head.header_copy("if-none-match");
  if (condition.any()) {
    condition.started = context.store.write_started();
  }
  return condition;
}

/// Checks shared by every write of a key: its length and the bucket.
std::optional<s3_error> check_destination(const request_context& context) {
  if (context.request.key.size() > max_key_length) {
    return errors::key_too_long(context.request.key.size());
  }
  if (!context.store.has_bucket(context.request.bucket)) {
    return errors::no_such_bucket(context.request.bucket);
  }
  return std::nullopt;
}

/// Reads an object once to compute its MD5 (as hex) and, when `algorithm` is set, a checksum.
struct digest_pass {
  std::string md5_hex;
  std::optional<checksum_value> checksum;
};
digest_pass digest_object(const object_ptr& object, const std::string& algorithm) {
  s3::digest_stream md5(s3::digest_stream::kind::md5);
  auto sum = algorithm.empty() ? nullptr : s3::checksum::create(algorithm);
  object_reader reader(object, 0, object->size);
  std::vector<char> scratch(1024 * 1024);
  for (auto piece = reader.next(scratch, scratch.size()); !piece.empty();
       piece = reader.next(scratch, scratch.size())) {
    md5.update(piece);
    if (sum) {
      sum->update(piece);
    }
  }
  digest_pass out{s3::to_hex(md5.finish_raw()), std::nullopt};
  if (sum) {
    out.checksum = checksum_value{algorithm, sum->base64_digest(), "FULL_OBJECT"};
  }
  return out;
}

/// One entry of DeleteObjects, as its <Deleted> or <Error> element reports it.
delete_outcome delete_one(object_store& store, const std::string& bucket,
                          const delete_request::object& object, time_point now) {
  delete_outcome outcome;
  outcome.key = object.key;
  if (object.version_id && object.version_id->empty()) {
    outcome.error =
        errors::invalid_argument("Version id cannot be the empty string", "VersionId", "");
    return outcome;
  }
  const auto deleted = store.delete_object(bucket, object.key, now, object.version_id);
  if (const auto* error = std::get_if<s3_error>(&deleted)) {
    outcome.error = *error;
    return outcome;
  }
  const auto& result = std::get<delete_result>(deleted);
  outcome.version_id = object.version_id.value_or("");
  outcome.delete_marker = result.delete_marker;
  if (result.delete_marker) {
    outcome.marker_version_id = result.version_id;
  }
  return outcome;
}

} // namespace

operation_start put_object(const request_context& context) {
  if (auto error = check_destination(context)) {
    return answer_error(*error, context);
  }
  auto metadata = metadata_from_headers(context.head);
  if (auto* error = std::get_if<s3_error>(&metadata)) {
    return answer_error(*error, context);
  }
  object_store& store = context.store;
  const auto condition = write_condition_of(context);
  const std::string bucket = context.request.bucket;
  const std::string key = context.request.key;
  const std::string resource = context.request.resource;
  const time_point now = context.now;
  return receive_payload(context, max_put_size,
                         [=, &store, metadata = std::get<object_metadata>(std::move(metadata))](
                             received_payload payload) {
                           auto record = std::make_shared<object_record>();
                           record->size = payload.size;
                           record->etag = s3::to_hex(payload.md5_raw);
                           record->last_modified = now;
                           record->content_headers = metadata.content_headers;
                           record->user_metadata = metadata.user_metadata;
                           record->checksum = payload.checksum;
                           record->segments.push_back(payload.data);
                           if (auto error = store.put_object(bucket, key, record, condition)) {
                             return error_response(*error, resource);
                           }
                           origin_response response;
                           response.add("ETag", quote_etag(record->etag));
                           if (record->version_id != null_version_id) {
                             response.add("x-amz-version-id", record->version_id);
                           }
                           if (record->checksum) {
                             response.add("x-amz-checksum-" + record->checksum->algorithm,
                                          record->checksum->value);
                             response.add("x-amz-checksum-type", record->checksum->type);
                           }
                           return response;
                         });
}

operation_start copy_object(const request_context& context) {
  const auto source = parse_copy_source(context.head.header("x-amz-copy-source").value_or(""));
  if (const auto* error = std::get_if<s3_error>(&source)) {
    return answer_error(*error, context);
  }
  const auto& [source_bucket, source_key, source_version] = std::get<copy_source>(source);
  const std::string directive =
      context.head.header_copy("x-amz-metadata-directive").value_or("COPY");
  if (directive != "COPY" && directive != "REPLACE") {
    return answer_error(errors::invalid_argument("Unknown metadata directive.",
                                                 "x-amz-metadata-directive", directive),
                        context);
  }
  if (auto error = check_destination(context)) {
    return answer_error(*error, context);
  }
  const auto found = context.store.find_object(source_bucket, source_key, source_version);
  if (const auto* error = std::get_if<s3_error>(&found)) {
    return answer_error(*error, context);
  }
  const object_ptr& original = std::get<object_ptr>(found);
  object_facts facts{original->size, original->etag, original->last_modified, {}};
  if (auto error = check_copy_preconditions(context.head, facts)) {
    return answer_error(*error, context);
  }
  if (source_bucket == context.request.bucket && source_key == context.request.key &&
      !source_version && directive == "COPY") {
    return answer_error(
        errors::invalid_request("This copy request is illegal because it is trying to copy an "
                                "object to itself without changing the object's metadata, "
                                "storage class, website redirect location or encryption "
                                "attributes."),
        context);
  }
  auto copy = std::make_shared<object_record>();
  if (directive == "REPLACE") {
    auto metadata = metadata_from_headers(context.head);
    if (auto* error = std::get_if<s3_error>(&metadata)) {
      return answer_error(*error, context);
    }
    copy->content_headers = std::get<object_metadata>(metadata).content_headers;
    copy->user_metadata = std::get<object_metadata>(metadata).user_metadata;
  } else {
    copy->content_headers = original->content_headers;
    copy->user_metadata = original->user_metadata;
  }
  // The copy shares the source's blobs. It is a single-part object: a multipart source gets a
  // plain MD5 ETag, which takes one read of the bytes; so does a checksum the source lacks.
  copy->size = original->size;
  copy->segments = original->segments;
  copy->last_modified = context.now;
  std::string algorithm =
      text::ascii_lower(context.head.header_copy("x-amz-checksum-algorithm").value_or(""));
  if (algorithm.empty() && original->checksum) {
    algorithm = original->checksum->algorithm;
  }
  const bool checksum_reusable = original->checksum && original->checksum->type == "FULL_OBJECT" &&
                                 original->checksum->algorithm == algorithm;
  if (!algorithm.empty() && !s3::checksum::create(algorithm)) {
    return answer_error(errors::invalid_request("Checksum algorithm '" + algorithm +
                                                "' is not supported by the s3fault origin"),
                        context);
  }
  if (original->multipart() || (!algorithm.empty() && !checksum_reusable)) {
    try {
      auto pass = digest_object(original, checksum_reusable ? std::string() : algorithm);
      copy->etag = original->multipart() ? pass.md5_hex : original->etag;
      copy->checksum = checksum_reusable ? original->checksum : pass.checksum;
    } catch (const std::exception& error) {
      return answer_error(errors::internal_error(std::string("storage failure: ") + error.what()),
                          context);
    }
  } else {
    copy->etag = original->etag;
    copy->checksum = original->checksum;
  }
  if (auto error = context.store.put_object(context.request.bucket, context.request.key, copy,
                                            write_condition_of(context))) {
    return answer_error(*error, context);
  }
  auto response =
      xml_answer(render_copy_object_result(copy->etag, copy->last_modified, copy->checksum));
  if (original->version_id != null_version_id || source_version) {
    response.add("x-amz-copy-source-version-id", original->version_id);
  }
  if (copy->version_id != null_version_id) {
    response.add("x-amz-version-id", copy->version_id);
  }
  return answer(std::move(response));
}

operation_start delete_object(const request_context& context) {
  const auto version_id = requested_version(context.request.query);
  if (const auto* error = std::get_if<s3_error>(&version_id)) {
    return answer_error(*error, context);
  }
  const auto deleted =
      context.store.delete_object(context.request.bucket, context.request.key, context.now,
                                  std::get<std::optional<std::string>>(version_id));
  if (const auto* error = std::get_if<s3_error>(&deleted)) {
    return answer_error(*error, context);
  }
  const auto& result = std::get<delete_result>(deleted);
  origin_response response;
  response.status = 204;
  if (!result.version_id.empty()) {
    response.add("x-amz-version-id", result.version_id);
  }
  if (result.delete_marker) {
    response.add("x-amz-delete-marker", "true");
  }
  return answer(std::move(response));
}

operation_start delete_objects(const request_context& context) {
  const bool has_integrity_header =
      context.head.has_header("content-md5") ||
      std::any_of(context.head.headers.begin(), context.head.headers.end(),
                  [](const auto& field) {
                    const std::string name = text::ascii_lower(field.first);
                    return name.starts_with("x-amz-checksum-") &&
                           name != "x-amz-checksum-algorithm";
                  }) ||
      context.head.has_header("x-amz-sdk-checksum-algorithm");
  if (!has_integrity_header) {
    return answer_error(errors::invalid_request("Missing required header for this request: "
                                                "Content-MD5"),
                        context);
  }
  if (!context.store.has_bucket(context.request.bucket)) {
    return answer_error(errors::no_such_bucket(context.request.bucket), context);
  }
  object_store& store = context.store;
  const std::string bucket = context.request.bucket;
  const std::string resource = context.request.resource;
  const time_point now = context.now;
  return read_small_body(
      context,
      [=, &store](const std::string& body) {
        const auto parsed = parse_delete_objects(body);
        if (const auto* error = std::get_if<s3_error>(&parsed)) {
          return error_response(*error, resource);
        }
        const auto& request = std::get<delete_request>(parsed);
        std::vector<delete_outcome> outcomes;
        for (const auto& object : request.objects) {
          outcomes.push_back(delete_one(store, bucket, object, now));
        }
        return xml_answer(render_delete_result(outcomes, request.quiet));
      },
      4 * 1024 * 1024);
}

} // namespace s3fault::origin
