#pragma once
// An S3 error as a value: status, code, message, plus the extra elements and headers some codes
// carry (the key of a NoSuchKey, the region of an AuthorizationHeaderMalformed). Operations
// return these; the server renders them in one place (xml_render.hpp), as docs/contract.md
// ("Errors") says an error answer looks.
#include "s3_errors/s3_error_codes.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::origin {

struct s3_error {
  unsigned status = 500;
  std::string code;
  std::string message;
  /// Extra child elements of <Error>, rendered after Code, Message, Resource and RequestId.
  std::vector<std::pair<std::string, std::string>> details;
  /// Extra response headers (e.g. x-amz-bucket-region).
  std::vector<std::pair<std::string, std::string>> headers;

  s3_error& with(std::string name, std::string value) {
    details.emplace_back(std::move(name), std::move(value));
    return *this;
  }
};

// The codes the origin answers with, named after S3's. Status and code come from the shared
// table (s3_errors/s3_error_codes.hpp), as the `error` fault action's do; the message too, unless
// the origin has a more precise one. Messages are AWS's where known.
namespace errors {
/// The error `entry` names, with its message or `message`. Call it with
/// s3_errors::known_s3_error("Code"), so that a code outside the table does not compile.
s3_error from_table(const s3_errors::s3_error_code& entry);
s3_error from_table(const s3_errors::s3_error_code& entry, std::string_view message);

s3_error access_denied(std::string_view message = "Access Denied");
s3_error bad_digest(std::string_view message);
s3_error bucket_already_exists(std::string_view bucket);
s3_error bucket_already_owned_by_you(std::string_view bucket);
s3_error bucket_not_empty(std::string_view bucket);
s3_error entity_too_large(std::uint64_t size, std::uint64_t max);
s3_error entity_too_small(unsigned part_number, std::uint64_t size, std::uint64_t min);
s3_error illegal_location_constraint(std::string_view constraint, std::string_view region);
s3_error incomplete_body(std::string_view message);
s3_error internal_error(std::string_view message);
s3_error invalid_argument(std::string_view message, std::string_view name, std::string_view value);
s3_error invalid_bucket_name(std::string_view bucket);
s3_error invalid_digest(std::string_view message);
s3_error invalid_part(std::string_view message);
s3_error invalid_part_number();
s3_error invalid_part_order();
s3_error invalid_range(std::string_view requested, std::uint64_t size);
s3_error invalid_request(std::string_view message);
s3_error key_too_long(std::size_t length);
s3_error malformed_xml();
s3_error metadata_too_large(std::size_t size);
s3_error method_not_allowed(std::string_view method, std::string_view resource_type);
s3_error missing_content_length();
s3_error no_such_bucket(std::string_view bucket);
s3_error no_such_key(std::string_view key);
s3_error no_such_upload(std::string_view upload_id);
s3_error no_such_version(std::string_view key, std::string_view version_id);
s3_error conditional_request_conflict();
s3_error not_implemented(std::string_view what);
s3_error precondition_failed(std::string_view condition);
s3_error content_sha256_mismatch(std::string_view client, std::string_view computed);
} // namespace errors

} // namespace s3fault::origin
