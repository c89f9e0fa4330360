// CreateMultipartUpload, UploadPart, UploadPartCopy, CompleteMultipartUpload,
// AbortMultipartUpload. The rules of completion are in multipart_rules.hpp.
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

namespace s3fault::origin {
namespace {

/// partNumber of UploadPart: 1..10000.
std::variant<unsigned, s3_error> upload_part_number(const query_params& query) {
  const auto parsed = parse_part_number(query.get("partNumber"));
  if (const auto* error = std::get_if<s3_error>(&parsed)) {
    return *error;
  }
  const auto number = std::get<std::optional<unsigned>>(parsed);
  if (!number) {
    return errors::invalid_argument("Part number must be an integer between 1 and 10000, inclusive",
                                    "partNumber", "");
  }
  return *number;
}

/// The part number and the upload's checksum algorithm, or why the part cannot be taken.
struct part_target {
  unsigned number = 0;
  std::string upload_id;
  std::string checksum_algorithm;
};
std::variant<part_target, s3_error> locate_part_target(const request_context& context) {
  const auto number = upload_part_number(context.request.query);
  if (const auto* error = std::get_if<s3_error>(&number)) {
    return *error;
  }
  part_target target;
  target.number = std::get<unsigned>(number);
  target.upload_id = context.request.query.get("uploadId").value_or("");
  const auto upload =
      context.store.find_upload(context.request.bucket, context.request.key, target.upload_id);
  if (const auto* error = std::get_if<s3_error>(&upload)) {
    return *error;
  }
  target.checksum_algorithm = std::get<std::string>(upload);
  return target;
}

} // namespace

operation_start create_multipart_upload(const request_context& context) {
  if (context.request.key.size() > max_key_length) {
    return answer_error(errors::key_too_long(context.request.key.size()), context);
  }
  auto metadata = metadata_from_headers(context.head);
  if (auto* error = std::get_if<s3_error>(&metadata)) {
    return answer_error(*error, context);
  }
  const std::string algorithm =
      text::ascii_lower(context.head.header_copy("x-amz-checksum-algorithm").value_or(""));
  if (!algorithm.empty() && !s3::checksum::create(algorithm)) {
    return answer_error(errors::invalid_request("Checksum algorithm '" + algorithm +
                                                "' is not supported by the s3fault origin"),
                        context);
  }
  const std::string type = context.head.header_copy("x-amz-checksum-type").value_or("");
  if (!type.empty() && type != "COMPOSITE" && type != "FULL_OBJECT") {
    return answer_error(errors::invalid_argument("Value for x-amz-checksum-type header is invalid.",
                                                 "x-amz-checksum-type", type),
                        context);
  }
  if (!type.empty() && algorithm.empty()) {
    return answer_error(errors::invalid_request("The x-amz-checksum-type header can only be used "
                                                "with the x-amz-checksum-algorithm header."),
                        context);
  }
  if (type == "FULL_OBJECT" && algorithm != "crc32" && algorithm != "crc32c") {
    return answer_error(errors::invalid_request("The FULL_OBJECT checksum type cannot be used "
                                                "with the " +
                                                algorithm + " checksum algorithm."),
                        context);
  }
  const auto created = context.store.create_upload(
      context.request.bucket, context.request.key, std::get<object_metadata>(std::move(metadata)),
      algorithm, type.empty() ? "COMPOSITE" : type, context.now);
  if (const auto* error = std::get_if<s3_error>(&created)) {
    return answer_error(*error, context);
  }
  origin_response response = xml_answer(render_initiate_multipart(
      context.request.bucket, context.request.key, std::get<std::string>(created)));
  if (!algorithm.empty()) {
    response.add("x-amz-checksum-algorithm", text::ascii_upper(algorithm));
    response.add("x-amz-checksum-type", type.empty() ? "COMPOSITE" : type);
  }
  return answer(std::move(response));
}

operation_start upload_part(const request_context& context) {
  const auto target = locate_part_target(context);
  if (const auto* error = std::get_if<s3_error>(&target)) {
    return answer_error(*error, context);
  }
  const part_target& part = std::get<part_target>(target);
  object_store& store = context.store;
  const std::string bucket = context.request.bucket;
  const std::string key = context.request.key;
  const std::string resource = context.request.resource;
  const time_point now = context.now;
  return receive_payload(context, max_put_size, [=, &store](received_payload payload) {
    part_record record;
    record.size = payload.size;
    record.md5_raw = payload.md5_raw;
    record.last_modified = now;
    record.data = payload.data;
    if (payload.checksum) {
      record.checksum_algorithm = payload.checksum->algorithm;
      record.checksum = payload.checksum->value;
    }
    if (auto error = store.add_part(bucket, key, part.upload_id, part.number, record)) {
      return error_response(*error, resource);
    }
    origin_response response;
    response.add("ETag", quote_etag(s3::to_hex(record.md5_raw)));
    if (payload.checksum) {
      response.add("x-amz-checksum-" + record.checksum_algorithm, record.checksum);
    }
    return response;
  });
}

operation_start upload_part_copy(const request_context& context) {
  const auto target = locate_part_target(context);
  if (const auto* error = std::get_if<s3_error>(&target)) {
    return answer_error(*error, context);
  }
  const part_target& part = std::get<part_target>(target);
  const auto source = parse_copy_source(context.head.header("x-amz-copy-source").value_or(""));
  if (const auto* error = std::get_if<s3_error>(&source)) {
    return answer_error(*error, context);
  }
  const auto found = context.store.find_object(std::get<copy_source>(source).bucket,
                                               std::get<copy_source>(source).key,
                                               std::get<copy_source>(source).version_id);
  if (const auto* error = std::get_if<s3_error>(&found)) {
    return answer_error(*error, context);
  }
  const object_ptr& original = std::get<object_ptr>(found);
  object_facts facts{original->size, original->etag, original->last_modified, {}};
  if (auto error = check_copy_preconditions(context.head, facts)) {
    return answer_error(*error, context);
  }
  byte_span span{0, original->size};
  if (auto range = context.head.header("x-amz-copy-source-range")) {
    const auto parsed = parse_copy_source_range(*range, original->size);
    if (const auto* error = std::get_if<s3_error>(&parsed)) {
      return answer_error(*error, context);
    }
    span = std::get<byte_span>(parsed);
  }
  if (span.length > max_put_size) {
    return answer_error(errors::entity_too_large(span.length, max_put_size), context);
  }
  // The part is a new blob holding the copied range.
  part_record record;
  try {
    auto writer = context.store.new_blob(span.length);
    s3::digest_stream md5(s3::digest_stream::kind::md5);
    auto sum =
        part.checksum_algorithm.empty() ? nullptr : s3::checksum::create(part.checksum_algorithm);
    object_reader reader(original, span.offset, span.length);
    std::vector<char> scratch(1024 * 1024);
    for (auto piece = reader.next(scratch, scratch.size()); !piece.empty();
         piece = reader.next(scratch, scratch.size())) {
      md5.update(piece);
      if (sum) {
        sum->update(piece);
      }
      writer->write(piece);
    }
    record.size = span.length;
    record.md5_raw = md5.finish_raw();
    if (sum) {
      record.checksum_algorithm = part.checksum_algorithm;
      record.checksum = sum->base64_digest();
    }
    record.last_modified = context.now;
    record.data = writer->commit();
  } catch (const std::exception& error) {
    return answer_error(errors::internal_error(std::string("storage failure: ") + error.what()),
                        context);
  }
  const std::string etag = s3::to_hex(record.md5_raw);
  if (auto error = context.store.add_part(context.request.bucket, context.request.key,
                                          part.upload_id, part.number, std::move(record))) {
    return answer_error(*error, context);
  }
  return answer(xml_answer(render_copy_part_result(etag, context.now)));
}

operation_start complete_multipart_upload(const request_context& context) {
  const std::string upload_id = context.request.query.get("uploadId").value_or("");
  // An upload that is gone may have completed: the store answers a retry of that Complete.
  const auto upload =
      context.store.find_upload(context.request.bucket, context.request.key, upload_id);
  if (const auto* error = std::get_if<s3_error>(&upload); error && error->code != "NoSuchUpload") {
    return answer_error(*error, context);
  }
  object_store& store = context.store;
  const std::string bucket = context.request.bucket;
  const std::string key = context.request.key;
  const std::string resource = context.request.resource;
  const std::string host(context.head.header("host").value_or("localhost"));
  const std::uint64_t min_part_size = context.settings.min_part_size;
  const time_point now = context.now;
  // The upload's creation is when this write began (object_store::complete_upload).
  write_condition condition;
  condition.if_match = context.head.header_copy("if-match");
  condition.if_none_match = context.head.header_copy("if-none-match");
  // The whole object's checksum, when the client states it (x-amz-checksum-<algorithm>).
  std::optional<std::string> declared;
  for (const char* algorithm : {"crc32", "crc32c", "sha1", "sha256"}) {
    if (auto value = context.head.header_copy(std::string("x-amz-checksum-") + algorithm)) {
      declared = value;
    }
  }
  return read_small_body(
      context,
      [=, &store](const std::string& body) {
        const auto parts = parse_complete_multipart(body);
        if (const auto* error = std::get_if<s3_error>(&parts)) {
          return error_response(*error, resource);
        }
        const auto completed = store.complete_upload(bucket, key, upload_id,
                                                     std::get<std::vector<completed_part>>(parts),
                                                     min_part_size, now, condition, declared);
        if (const auto* error = std::get_if<s3_error>(&completed)) {
          return error_response(*error, resource);
        }
        const object_ptr& object = std::get<object_ptr>(completed);
        const std::string location = "http://" + host + "/" + s3::uri_encode(bucket, true) + "/" +
                                     s3::uri_encode(key, false);
        auto response = xml_answer(
            render_complete_multipart(location, bucket, key, object->etag, object->checksum));
        if (object->version_id != null_version_id) {
          response.add("x-amz-version-id", object->version_id);
        }
        return response;
      },
      16 * 1024 * 1024, false);
}

operation_start abort_multipart_upload(const request_context& context) {
  if (auto error = context.store.abort_upload(context.request.bucket, context.request.key,
                                              context.request.query.get("uploadId").value_or(""))) {
    return answer_error(*error, context);
  }
  origin_response response;
  response.status = 204;
  return answer(std::move(response));
}

} // namespace s3fault::origin
