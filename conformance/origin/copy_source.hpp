#pragma once
// The copy-specific request headers of CopyObject and UploadPartCopy, checked as pure
// functions: x-amz-copy-source, x-amz-copy-source-if-*, x-amz-copy-source-range.
#include "conformance/origin/http_message.hpp"
#include "conformance/origin/read_plan.hpp"

#include <optional>
#include <string>
#include <variant>

namespace s3fault::origin {

struct copy_source {
  std::string bucket;
  std::string key;
  std::optional<std::string> version_id; // from "?versionId=..."; nullopt: the current version
};

/// "/bucket/key" or "bucket/key", percent-encoded, optionally "?versionId=ID".
/// InvalidArgument when it names no key, or with another query.
std::variant<copy_source, s3_error> parse_copy_source(std::string_view header);

/// x-amz-copy-source-if-match, -if-none-match, -if-modified-since, -if-unmodified-since: any
/// that does not hold is 412 PreconditionFailed (a copy never answers 304).
std::optional<s3_error> check_copy_preconditions(const request_head& head,
                                                 const object_facts& source);

/// "bytes=first-last" within an object of `size`. InvalidArgument for another form,
/// InvalidRange when it does not fit the object.
std::variant<byte_span, s3_error> parse_copy_source_range(std::string_view text,
                                                          std::uint64_t size);

} // namespace s3fault::origin
