#include "conformance/origin/object_headers.hpp"

#include "text/text.hpp"

#include "conformance/origin/http_date.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace s3fault::origin {
namespace {

constexpr std::size_t max_user_metadata = 2048;
constexpr std::string_view meta_prefix = "x-amz-meta-";

/// Stored content headers and the response-* parameter that overrides each on GET.
struct content_field {
  std::string_view name;
  std::string_view override_param;
};
constexpr std::array<content_field, 6> content_fields = {{
    {"Content-Type", "response-content-type"},
    {"Content-Encoding", "response-content-encoding"},
    {"Content-Disposition", "response-content-disposition"},
    {"Content-Language", "response-content-language"},
    {"Cache-Control", "response-cache-control"},
    {"Expires", "response-expires"},
}};

/// Content-Encoding without the aws-chunked token.
std::string without_aws_chunked(std::string_view value) {
  std::string out;
  while (!value.empty()) {
    const auto comma = value.find(',');
    const std::string_view token = text::trim(value.substr(0, comma));
    value = comma == std::string_view::npos ? std::string_view{} : value.substr(comma + 1);
    if (token.empty() || text::ascii_lower(token) == "aws-chunked") {
      continue;
    }
    if (!out.empty()) {
      out += ",";
    }
    out += token;
  }
  return out;
}

} // namespace

std::string quote_etag(std::string_view etag) {
  return "\"" + std::string(etag) + "\"";
}

std::variant<object_metadata, s3_error> metadata_from_headers(const request_head& head) {
  object_metadata metadata;
  for (const auto& field : content_fields) {
    auto value = head.header(field.name);
    if (field.name == "Content-Type") {
      metadata.content_headers.emplace_back(field.name,
                                            value ? std::string(*value) : "binary/octet-stream");
      continue;
    }
    if (!value) {
      continue;
    }
    std::string stored(*value);
    if (field.name == "Content-Encoding") {
      stored = without_aws_chunked(stored);
      if (stored.empty()) {
        continue;
      }
    }
    metadata.content_headers.emplace_back(field.name, std::move(stored));
  }
  std::size_t size = 0;
  for (const auto& [name, value] : head.headers) {
    std::string name_lower = text::ascii_lower(name);
    if (name_lower.starts_with(meta_prefix)) {
      size += name_lower.size() - meta_prefix.size() + value.size();
      metadata.user_metadata.emplace_back(std::move(name_lower), value);
    }
  }
  if (size > max_user_metadata) {
    return errors::metadata_too_large(size);
  }
  return metadata;
}

void add_object_headers(origin_response& response, const object_record& object,
                        const query_params& query) {
  response.add("ETag", quote_etag(object.etag));
  response.add("Last-Modified", format_http_date(object.last_modified));
  response.add("Accept-Ranges", "bytes");
  for (const auto& field : content_fields) {
    if (auto forced = query.get(field.override_param)) {
      response.add(std::string(field.name), *forced);
      continue;
    }
    for (const auto& [name, value] : object.content_headers) {
      if (name == field.name) {
        response.add(name, value);
      }
    }
  }
  for (const auto& [name, value] : object.user_metadata) {
    response.add(name, value);
  }
}

} // namespace s3fault::origin
