#pragma once
// The XML bodies clients send: CompleteMultipartUpload, Delete (DeleteObjects) and
// CreateBucketConfiguration. Anything that is not well-formed or lacks a required element is
// MalformedXML, as S3 answers. Element names are matched without their namespace.
#include "conformance/origin/multipart_rules.hpp"
#include "conformance/origin/s3_error.hpp"
#include "conformance/origin/store_views.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace s3fault::origin {

std::variant<std::vector<completed_part>, s3_error> parse_complete_multipart(std::string_view body);

struct delete_request {
  struct object {
    std::string key;
    std::optional<std::string> version_id;
  };
  bool quiet = false;
  std::vector<object> objects;
};
/// At most 1000 keys, as S3 allows.
std::variant<delete_request, s3_error> parse_delete_objects(std::string_view body);

/// The Status of a PutBucketVersioning body: enabled or suspended. MalformedXML otherwise
/// (S3 has no way back to "off"); an MfaDelete element is refused as NotImplemented.
std::variant<versioning_status, s3_error> parse_versioning_configuration(std::string_view body);

/// The LocationConstraint of a CreateBucket body; empty when the body or element is absent.
std::variant<std::string, s3_error> parse_create_bucket_configuration(std::string_view body);

} // namespace s3fault::origin
