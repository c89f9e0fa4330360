// ListObjects (v1), ListObjectsV2, ListObjectVersions, ListMultipartUploads, ListParts: parameters
// checked and echoed as S3 does; the page itself comes from listing.hpp through the store.
#include "conformance/origin/operations.hpp"
#include "conformance/origin/xml_render.hpp"
#include "conformance/s3/hashing.hpp"
#include "text/text.hpp"

#include <algorithm>

namespace s3fault::origin {
namespace {

constexpr unsigned page_limit = 1000;

/// A non-negative integer parameter: absent -> `absent`; not an integer -> InvalidArgument;
/// above `cap` -> `cap`.
std::variant<unsigned, s3_error> parse_count(const query_params& query, std::string_view name,
                                             unsigned absent, unsigned cap) {
  const auto text = query.get(name);
  if (!text) {
    return absent;
  }
  const auto value = text::parse_whole_number<unsigned>(*text);
  if (!value || *value > 2147483647) {
    return errors::invalid_argument(
        "Provided " + std::string(name) + " not an integer or within integer range", name, *text);
  }
  return std::min(*value, cap);
}

/// max-keys and the like: S3 never returns more than 1000 entries per page.
std::variant<unsigned, s3_error> parse_page_size(const query_params& query, std::string_view name) {
  return parse_count(query, name, page_limit, page_limit);
}

std::variant<bool, s3_error> parse_encoding_type(const query_params& query) {
  const auto encoding = query.get("encoding-type");
  if (!encoding) {
    return false;
  }
  if (*encoding != "url") {
    return errors::invalid_argument("Invalid Encoding Method specified in Request", "encoding-type",
                                    *encoding);
  }
  return true;
}

/// Parameters shared by both ListObjects versions.
struct listing_parameters {
  listing_echo echo;
  listing_request request;
};

std::variant<listing_parameters, s3_error>
common_listing_parameters(const request_context& context) {
  const auto& query = context.request.query;
  listing_parameters out;
  const auto max_keys = parse_page_size(query, "max-keys");
  if (const auto* error = std::get_if<s3_error>(&max_keys)) {
    return *error;
  }
  const auto url = parse_encoding_type(query);
  if (const auto* error = std::get_if<s3_error>(&url)) {
    return *error;
  }
  out.echo.bucket = context.request.bucket;
  out.echo.prefix = query.get("prefix").value_or("");
  out.echo.delimiter = query.get("delimiter").value_or("");
  out.echo.max_keys = std::get<unsigned>(max_keys);
  out.echo.url_encoding = std::get<bool>(url);
  out.echo.owner = context.bucket_owner();
  out.request.prefix = out.echo.prefix;
  out.request.delimiter = out.echo.delimiter;
  out.request.max_keys = out.echo.max_keys;
  return out;
}

} // namespace

operation_start list_objects_v1(const request_context& context) {
  auto parameters = common_listing_parameters(context);
  if (auto* error = std::get_if<s3_error>(&parameters)) {
    return answer_error(*error, context);
  }
  auto& [echo, request] = std::get<listing_parameters>(parameters);
  echo.marker = context.request.query.get("marker").value_or("");
  request.after = echo.marker;
  const auto page = context.store.list_objects(context.request.bucket, request);
  if (const auto* error = std::get_if<s3_error>(&page)) {
    return answer_error(*error, context);
  }
  return answer(xml_answer(render_list_objects_v1(echo, std::get<object_listing>(page))));
}

operation_start list_objects_v2(const request_context& context) {
  auto parameters = common_listing_parameters(context);
  if (auto* error = std::get_if<s3_error>(&parameters)) {
    return answer_error(*error, context);
  }
  auto& [echo, request] = std::get<listing_parameters>(parameters);
  const auto& query = context.request.query;
  echo.fetch_owner = query.get("fetch-owner") == "true";
  echo.start_after = query.get("start-after");
  echo.continuation_token = query.get("continuation-token");
  if (echo.continuation_token) {
    // Tokens are the base64 of where the previous page stopped; opaque to clients.
    const auto after = s3::base64_decode(*echo.continuation_token);
    if (!after || after->empty()) {
      return answer_error(errors::invalid_argument("The continuation token provided is incorrect",
                                                   "continuation-token", *echo.continuation_token),
                          context);
    }
    request.after = *after;
  } else if (echo.start_after) {
    request.after = *echo.start_after;
  }
  const auto page = context.store.list_objects(context.request.bucket, request);
  if (const auto* error = std::get_if<s3_error>(&page)) {
    return answer_error(*error, context);
  }
  const auto& listing = std::get<object_listing>(page);
  if (listing.truncated) {
    echo.next_continuation_token = s3::base64_encode(listing.last_entry);
  }
  return answer(xml_answer(render_list_objects_v2(echo, listing)));
}

operation_start list_multipart_uploads(const request_context& context) {
  const auto& query = context.request.query;
  const auto max_uploads = parse_page_size(query, "max-uploads");
  if (const auto* error = std::get_if<s3_error>(&max_uploads)) {
    return answer_error(*error, context);
  }
  const auto url = parse_encoding_type(query);
  if (const auto* error = std::get_if<s3_error>(&url)) {
    return answer_error(*error, context);
  }
  uploads_echo echo;
  echo.bucket = context.request.bucket;
  echo.prefix = query.get("prefix").value_or("");
  echo.delimiter = query.get("delimiter").value_or("");
  echo.key_marker = query.get("key-marker").value_or("");
  echo.upload_id_marker = query.get("upload-id-marker").value_or("");
  echo.max_uploads = std::get<unsigned>(max_uploads);
  echo.url_encoding = std::get<bool>(url);
  echo.owner = context.bucket_owner();
  const upload_listing_request request{echo.prefix, echo.delimiter, echo.key_marker,
                                       echo.upload_id_marker, echo.max_uploads};
  const auto page = context.store.list_uploads(context.request.bucket, request);
  if (const auto* error = std::get_if<s3_error>(&page)) {
    return answer_error(*error, context);
  }
  return answer(xml_answer(render_list_uploads(echo, std::get<upload_listing>(page))));
}

operation_start list_parts(const request_context& context) {
  const auto& query = context.request.query;
  const auto max_parts = parse_page_size(query, "max-parts");
  if (const auto* error = std::get_if<s3_error>(&max_parts)) {
    return answer_error(*error, context);
  }
  const auto marker = parse_count(query, "part-number-marker", 0, 2147483647u);
  if (const auto* error = std::get_if<s3_error>(&marker)) {
    return answer_error(*error, context);
  }
  parts_echo echo;
  echo.bucket = context.request.bucket;
  echo.max_parts = std::get<unsigned>(max_parts);
  echo.part_number_marker = std::get<unsigned>(marker);
  echo.owner = context.bucket_owner();
  const auto page = context.store.list_parts(context.request.bucket, context.request.key,
                                             query.get("uploadId").value_or(""),
                                             echo.part_number_marker, echo.max_parts);
  if (const auto* error = std::get_if<s3_error>(&page)) {
    return answer_error(*error, context);
  }
  return answer(xml_answer(render_list_parts(echo, std::get<part_listing>(page))));
}

operation_start list_object_versions(const request_context& context) {
  const auto& query = context.request.query;
  const auto max_keys = parse_page_size(query, "max-keys");
  if (const auto* error = std::get_if<s3_error>(&max_keys)) {
    return answer_error(*error, context);
  }
  const auto url = parse_encoding_type(query);
  if (const auto* error = std::get_if<s3_error>(&url)) {
    return answer_error(*error, context);
  }
  versions_echo echo;
  echo.bucket = context.request.bucket;
  echo.owner = context.bucket_owner();
  echo.prefix = query.get("prefix").value_or("");
  echo.delimiter = query.get("delimiter").value_or("");
  echo.key_marker = query.get("key-marker").value_or("");
  echo.version_id_marker = query.get("version-id-marker").value_or("");
  echo.max_keys = std::get<unsigned>(max_keys);
  echo.url_encoding = std::get<bool>(url);
  if (!echo.version_id_marker.empty() && echo.key_marker.empty()) {
    return answer_error(
        errors::invalid_argument("A version-id marker cannot be specified without a key marker.",
                                 "version-id-marker", echo.version_id_marker),
        context);
  }
  version_listing_request request;
  request.prefix = echo.prefix;
  request.delimiter = echo.delimiter;
  request.key_marker = echo.key_marker;
  request.version_id_marker = echo.version_id_marker;
  request.max_keys = echo.max_keys;
  const auto page = context.store.list_versions(context.request.bucket, request);
  if (const auto* error = std::get_if<s3_error>(&page)) {
    return answer_error(*error, context);
  }
  return answer(xml_answer(render_list_versions(echo, std::get<version_listing>(page))));
}

} // namespace s3fault::origin
