#pragma once
// Object metadata in and out: which request headers are stored with an object (Content-Type,
// Content-Encoding, Content-Disposition, Content-Language, Cache-Control, Expires, x-amz-meta-*)
// and how they come back on GET and HEAD, response-* query overrides included.
#include "conformance/origin/http_message.hpp"
#include "conformance/origin/request_router.hpp"

#include <variant>

namespace s3fault::origin {

/// The metadata of a new object from its upload request. Content-Type defaults to
/// binary/octet-stream, "aws-chunked" is dropped from Content-Encoding (it describes the
/// upload, not the object). MetadataTooLarge past 2 KiB of user metadata.
std::variant<object_metadata, s3_error> metadata_from_headers(const request_head& head);

/// ETag, Last-Modified, Accept-Ranges, the stored content headers (or their response-*
/// overrides) and x-amz-meta-*.
void add_object_headers(origin_response& response, const object_record& object,
                        const query_params& query);

/// `"etag"`
std::string quote_etag(std::string_view etag);

} // namespace s3fault::origin
