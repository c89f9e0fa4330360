#pragma once
// What an S3 request is, in S3's terms: the operation, bucket, key, part number and range,
// derived from the method, target and a few headers. Pure: no sockets, testable with strings.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::faults {

enum class s3_operation {
  GetObject,
  HeadObject,
  PutObject,
  UploadPart,
  CreateMultipartUpload,
  CompleteMultipartUpload,
  AbortMultipartUpload,
  ListParts,
  ListObjectsV2,
  ListObjects,
  DeleteObject,
  DeleteObjects,
  CopyObject,
  CreateBucket,
  DeleteBucket,
  HeadBucket,
  ListBuckets,
  ListObjectVersions,
  GetBucketVersioning,
  PutBucketVersioning,
  GetObjectAttributes,
  Other,
};

std::string_view operation_name(s3_operation operation);
/// Case-insensitive; nullopt for an unknown name.
std::optional<s3_operation> parse_operation(std::string_view name);
/// Every operation, for help texts and error messages.
const std::vector<s3_operation>& all_operations();

/// The parts of a request the classifier reads.
struct request_line {
  std::string_view method;
  std::string_view target;      // raw path and query as sent
  std::string_view host;        // Host header value, may be empty
  bool has_copy_source = false; // x-amz-copy-source present
  std::string_view range{};     // Range header value, may be empty
};

struct s3_request {
  s3_operation operation = s3_operation::Other;
  std::string bucket; // empty for service-level requests
  std::string key;    // URL-decoded; empty for bucket-level requests
  std::optional<std::uint32_t> part_number;
  std::optional<std::string> range; // the Range header as sent ("bytes=0-9"), when present
  bool virtual_host = false;
  std::vector<std::pair<std::string, std::string>> query; // decoded, in request order

  /// The value of a query parameter (empty for one without '='); nullopt when absent.
  std::optional<std::string_view> query_value(std::string_view name) const;
};

/// Classifies a request. Virtual-host style is recognised when the Host is `BUCKET.DOMAIN`
/// for one of `domains` (e.g. "s3.example.test"), or for AWS's own S3 host names, or
/// `BUCKET.localhost`; otherwise the request is path-style.
s3_request classify_request(const request_line& line, const std::vector<std::string>& domains = {});

} // namespace s3fault::faults
