#pragma once
// The XML documents of the S3 API that the client reads and writes, as plain structs.
// Parsers return nullopt with `error` set when the document is not what was expected; they
// accept the element order and optional elements of real stores (RGW, s3rver, MinIO, AWS).
#include "conformance/client/http_types.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::client {

/// <Error> (also the body of a 200 that failed, as CompleteMultipartUpload and CopyObject
/// may send). nullopt when the document is not an <Error>.
std::optional<s3_error> parse_error_xml(std::string_view xml);

struct object_summary {
  std::string key;
  std::string last_modified;
  std::string etag;
  std::uint64_t size = 0;
  std::string storage_class;
};

/// ListBucketResult of ListObjectsV2.
struct list_objects_result {
  std::string bucket;
  std::string prefix;
  std::string delimiter;
  std::uint64_t max_keys = 0;
  std::uint64_t key_count = 0;
  bool is_truncated = false;
  std::string continuation_token;
  std::string next_continuation_token;
  std::string start_after;
  std::vector<object_summary> contents;
  std::vector<std::string> common_prefixes;
};
std::optional<list_objects_result> parse_list_objects_v2(std::string_view xml, std::string& error);

struct bucket_summary {
  std::string name;
  std::string creation_date;
};
/// ListAllMyBucketsResult.
struct list_buckets_result {
  std::string owner_id;
  std::string owner_display_name;
  std::vector<bucket_summary> buckets;
};
std::optional<list_buckets_result> parse_list_buckets(std::string_view xml, std::string& error);

/// InitiateMultipartUploadResult.
struct initiate_multipart_result {
  std::string bucket;
  std::string key;
  std::string upload_id;
};
std::optional<initiate_multipart_result> parse_initiate_multipart(std::string_view xml,
                                                                  std::string& error);

/// CompleteMultipartUploadResult.
struct complete_multipart_result {
  std::string location;
  std::string bucket;
  std::string key;
  std::string etag;
};
std::optional<complete_multipart_result> parse_complete_multipart(std::string_view xml,
                                                                  std::string& error);

struct part_summary {
  int part_number = 0;
  std::string etag;
  std::uint64_t size = 0;
  std::string last_modified;
};
/// ListPartsResult.
struct list_parts_result {
  std::string bucket;
  std::string key;
  std::string upload_id;
  bool is_truncated = false;
  std::string next_part_number_marker;
  std::vector<part_summary> parts;
};
std::optional<list_parts_result> parse_list_parts(std::string_view xml, std::string& error);

struct upload_summary {
  std::string key;
  std::string upload_id;
  std::string initiated;
};
/// ListMultipartUploadsResult.
struct list_uploads_result {
  std::string bucket;
  bool is_truncated = false;
  std::string next_key_marker;
  std::string next_upload_id_marker;
  std::vector<upload_summary> uploads;
};
std::optional<list_uploads_result> parse_list_multipart_uploads(std::string_view xml,
                                                                std::string& error);

/// CopyObjectResult.
struct copy_object_result {
  std::string etag;
  std::string last_modified;
};
std::optional<copy_object_result> parse_copy_object(std::string_view xml, std::string& error);

struct deleted_object {
  std::string key;
  std::string version_id;
};
struct delete_failure {
  std::string key;
  std::string code;
  std::string message;
};
/// DeleteResult of DeleteObjects.
struct delete_objects_result {
  std::vector<deleted_object> deleted;
  std::vector<delete_failure> errors;
};
std::optional<delete_objects_result> parse_delete_objects(std::string_view xml, std::string& error);

/// One entry of ListVersionsResult: a <Version> or a <DeleteMarker>, in document order.
struct object_version {
  std::string key;
  std::string version_id;
  bool is_latest = false;
  bool delete_marker = false; // a <DeleteMarker> (no ETag, no size)
  std::string etag;
  std::uint64_t size = 0;
};
/// ListVersionsResult of ListObjectVersions (GET /bucket?versions).
struct list_versions_result {
  bool is_truncated = false;
  std::string next_key_marker;
  std::string next_version_id_marker;
  std::vector<object_version> versions;
};
std::optional<list_versions_result> parse_list_object_versions(std::string_view xml,
                                                               std::string& error);

/// One <Part> of GetObjectAttributes' ObjectParts.
struct attributes_part {
  int part_number = 0;
  std::uint64_t size = 0;
  header_list checksums; // ("ChecksumCRC32", value), ... as sent
};
/// GetObjectAttributesResponse. Optional elements stay empty when the store left them out.
struct object_attributes_result {
  std::string etag; // AWS sends it without quotes
  std::optional<std::uint64_t> object_size;
  std::string storage_class;
  header_list checksums; // <Checksum> children: ("ChecksumCRC32", value), ...
  bool has_object_parts = false;
  /// The part count. AWS's wire name is <PartsCount> (the API calls it TotalPartsCount); a
  /// <TotalPartsCount> element is read too, and `parts_count_element` says which one came.
  std::optional<std::uint64_t> parts_count;
  std::string parts_count_element;
  std::optional<std::uint64_t> max_parts;
  bool is_truncated = false;
  std::string part_number_marker;
  std::string next_part_number_marker;
  std::vector<attributes_part> parts; // listed only for objects uploaded with checksums
};
std::optional<object_attributes_result> parse_object_attributes(std::string_view xml,
                                                                std::string& error);

// Request bodies.
/// One part of a CompleteMultipartUpload request.
struct completed_part {
  int part_number = 0;
  std::string etag;               // as returned by UploadPart, quotes included
  std::string checksum;           // optional x-amz-checksum-<algo> value of the part
  std::string checksum_algorithm; // "crc32", "crc32c", "sha1", "sha256" when checksum is set
};
std::string complete_multipart_xml(const std::vector<completed_part>& parts);
std::string delete_objects_xml(const std::vector<std::string>& keys, bool quiet);
/// VersioningConfiguration with a Status ("Enabled" or "Suspended").
std::string versioning_configuration_xml(std::string_view status);
/// CreateBucketConfiguration with a LocationConstraint.
std::string create_bucket_xml(std::string_view location_constraint);

} // namespace s3fault::client
