#include "conformance/origin/copy_source.hpp"

#include "text/text.hpp"

#include "conformance/s3/sigv4.hpp"

namespace s3fault::origin {
namespace {} // namespace

std::variant<copy_source, s3_error> parse_copy_source(std::string_view header) {
  std::string_view text = header;
  std::optional<std::string> version_id;
  if (const auto question = text.find('?'); question != std::string_view::npos) {
    const std::string_view query = text.substr(question + 1);
    text = text.substr(0, question);
    if (query.starts_with("versionId=") && query.size() > 10) {
      version_id = s3::uri_decode(query.substr(10));
    } else if (!query.empty()) {
      return errors::invalid_argument("Unsupported copy source parameter.", "x-amz-copy-source",
                                      header);
    }
  }
  const std::string decoded = s3::uri_decode(text);
  std::string_view path = decoded;
  if (path.starts_with('/')) {
    path.remove_prefix(1);
  }
  const auto slash = path.find('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == path.size()) {
    return errors::invalid_argument("Copy Source must mention the source bucket and key: "
                                    "sourcebucket/sourcekey",
                                    "x-amz-copy-source", header);
  }
  copy_source source;
  source.bucket = std::string(path.substr(0, slash));
  source.key = std::string(path.substr(slash + 1));
  source.version_id = std::move(version_id);
  return source;
}

std::optional<s3_error> check_copy_preconditions(const request_head& head,
                                                 const object_facts& source) {
  read_request conditions;
  conditions.if_match = head.header_copy("x-amz-copy-source-if-match");
  conditions.if_none_match = head.header_copy("x-amz-copy-source-if-none-match");
  conditions.if_modified_since = head.header_copy("x-amz-copy-source-if-modified-since");
  conditions.if_unmodified_since = head.header_copy("x-amz-copy-source-if-unmodified-since");
  switch (evaluate_preconditions(source, conditions)) {
  case precondition_outcome::proceed:
    return std::nullopt;
  case precondition_outcome::failed_if_match:
    return errors::precondition_failed("x-amz-copy-source-If-Match");
  case precondition_outcome::failed_if_unmodified:
    return errors::precondition_failed("x-amz-copy-source-If-Unmodified-Since");
  case precondition_outcome::not_modified:
    return errors::precondition_failed(conditions.if_none_match
                                           ? "x-amz-copy-source-If-None-Match"
                                           : "x-amz-copy-source-If-Modified-Since");
  }
  return std::nullopt;
}

std::variant<byte_span, s3_error> parse_copy_source_range(std::string_view text,
                                                          std::uint64_t size) {
  const auto spec = parse_range(text);
  if (!spec || !spec->first || !spec->last) {
    return errors::invalid_argument("The x-amz-copy-source-range value must be of the form "
                                    "bytes=first-last where first and last are the zero-based "
                                    "offsets of the first and last bytes to copy",
                                    "x-amz-copy-source-range", text);
  }
  if (*spec->last >= size) {
    return errors::invalid_range(text, size);
  }
  return byte_span{*spec->first, *spec->last - *spec->first + 1};
}

} // namespace s3fault::origin
