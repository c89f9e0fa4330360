#include "conformance/origin/s3_error.hpp"

#include <string>

namespace s3fault::origin::errors {
namespace {

s3_error make(unsigned status, std::string_view code, std::string_view message) {
  return s3_error{status, std::string(code), std::string(message), {}, {}};
}

} // namespace

s3_error access_denied(std::string_view message) {
  return make(403, "AccessDenied", message);
}

s3_error bad_digest(std::string_view message) {
  return make(400, "BadDigest", message);
}

s3_error bucket_already_owned_by_you(std::string_view bucket) {
  return make(409, "BucketAlreadyOwnedByYou",
              "Your previous request to create the named bucket succeeded and you already own "
              "it.")
      .with("BucketName", std::string(bucket));
}

s3_error bucket_not_empty(std::string_view bucket) {
  return make(409, "BucketNotEmpty", "The bucket you tried to delete is not empty")
      .with("BucketName", std::string(bucket));
}

s3_error entity_too_large(std::uint64_t size, std::uint64_t max) {
  return make(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size")
      .with("ProposedSize", std::to_string(size))
      .with("MaxSizeAllowed", std::to_string(max));
}

s3_error entity_too_small(unsigned part_number, std::uint64_t size, std::uint64_t min) {
  return make(400, "EntityTooSmall",
              "Your proposed upload is smaller than the minimum allowed size")
      .with("ProposedSize", std::to_string(size))
      .with("MinSizeAllowed", std::to_string(min))
      .with("PartNumber", std::to_string(part_number));
}

s3_error illegal_location_constraint(std::string_view constraint, std::string_view region) {
  return make(400, "IllegalLocationConstraintException",
              "The " + std::string(constraint) +
                  " location constraint is incompatible for the region specific endpoint this "
                  "request was sent to (" +
                  std::string(region) + ").");
}

s3_error incomplete_body(std::string_view message) {
  return make(400, "IncompleteBody", message);
}

s3_error internal_error(std::string_view message) {
  return make(500, "InternalError", message);
}

s3_error invalid_argument(std::string_view message, std::string_view name, std::string_view value) {
  return make(400, "InvalidArgument", message)
      .with("ArgumentName", std::string(name))
      .with("ArgumentValue", std::string(value));
}

s3_error invalid_bucket_name(std::string_view bucket) {
  return make(400, "InvalidBucketName", "The specified bucket is not valid.")
      .with("BucketName", std::string(bucket));
}

s3_error invalid_digest(std::string_view message) {
  return make(400, "InvalidDigest", message);
}

s3_error invalid_part(std::string_view message) {
  return make(400, "InvalidPart", message);
}

s3_error invalid_part_number() {
  return make(416, "InvalidPartNumber", "The requested partnumber is not satisfiable");
}

s3_error invalid_part_order() {
  return make(400, "InvalidPartOrder",
              "The list of parts was not in ascending order. Parts must be ordered by part "
              "number.");
}

s3_error invalid_range(std::string_view requested, std::uint64_t size) {
  return make(416, "InvalidRange", "The requested range is not satisfiable")
      .with("RangeRequested", std::string(requested))
      .with("ActualObjectSize", std::to_string(size));
}

s3_error invalid_request(std::string_view message) {
  return make(400, "InvalidRequest", message);
}

s3_error key_too_long(std::size_t length) {
  return make(400, "KeyTooLongError", "Your key is too long")
      .with("Size", std::to_string(length))
      .with("MaxSizeAllowed", "1024");
}

s3_error malformed_xml() {
  return make(400, "MalformedXML",
              "The XML you provided was not well-formed or did not validate against our "
              "published schema");
}

s3_error metadata_too_large(std::size_t size) {
  return make(400, "MetadataTooLarge",
              "Your metadata headers exceed the maximum allowed metadata size")
      .with("Size", std::to_string(size))
      .with("MaxSizeAllowed", "2048");
}

s3_error method_not_allowed(std::string_view method, std::string_view resource_type) {
  return make(405, "MethodNotAllowed", "The specified method is not allowed against this resource.")
      .with("Method", std::string(method))
      .with("ResourceType", std::string(resource_type));
}

s3_error missing_content_length() {
  return make(411, "MissingContentLength", "You must provide the Content-Length HTTP header.");
}

s3_error no_such_bucket(std::string_view bucket) {
  return make(404, "NoSuchBucket", "The specified bucket does not exist")
      .with("BucketName", std::string(bucket));
}

s3_error no_such_key(std::string_view key) {
  return make(404, "NoSuchKey", "The specified key does not exist.").with("Key", std::string(key));
}

s3_error no_such_upload(std::string_view upload_id) {
  return make(404, "NoSuchUpload",
              "The specified upload does not exist. The upload ID may be invalid, or the upload "
              "may have been aborted or completed.")
      .with("UploadId", std::string(upload_id));
}

s3_error not_implemented(std::string_view what) {
  return make(501, "NotImplemented",
              "A header or query you provided implies functionality that is not implemented: " +
                  std::string(what));
}

s3_error precondition_failed(std::string_view condition) {
  return make(412, "PreconditionFailed",
              "At least one of the pre-conditions you specified did not hold")
      .with("Condition", std::string(condition));
}

s3_error content_sha256_mismatch(std::string_view client, std::string_view computed) {
  return make(400, "XAmzContentSHA256Mismatch",
              "The provided 'x-amz-content-sha256' header does not match what was computed.")
      .with("ClientComputedContentSHA256", std::string(client))
      .with("S3ComputedContentSHA256", std::string(computed));
}

} // namespace s3fault::origin::errors
