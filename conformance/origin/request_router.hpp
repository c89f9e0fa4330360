#pragma once
// Which S3 operation a request is, on which bucket and key: from the method, the Host (for
// virtual-hosted buckets), the path and the sub-resources in the query. Pure.
//
//   GET /                         ListBuckets
//   PUT|DELETE|HEAD /b            CreateBucket | DeleteBucket | HeadBucket
//   PUT /b?versioning             PutBucketVersioning
//   GET /b  ?location ?versioning ?versions ?uploads ?list-type=2 (else)
//                                 GetBucketLocation | GetBucketVersioning | ListObjectVersions |
//                                 ListMultipartUploads | ListObjectsV2 | ListObjects
//   POST /b?delete                DeleteObjects
//   GET|HEAD /b/k                 GetObject | HeadObject      (?uploadId: ListParts)
//                                 (?versionId= on reads, copies and deletes: that version)
//   PUT /b/k                      PutObject | CopyObject (x-amz-copy-source)
//   PUT /b/k?partNumber&uploadId  UploadPart | UploadPartCopy (x-amz-copy-source)
//   DELETE /b/k                   DeleteObject                (?uploadId: AbortMultipartUpload)
//   POST /b/k?uploads | ?uploadId CreateMultipartUpload | CompleteMultipartUpload
//
//   GET /b/k?attributes           GetObjectAttributes (x-amz-object-attributes: which ones)
//   GET /b/k?tagging              GetObjectTagging (always an empty tag set)
//   GET /b?acl, GET /b/k?acl      GetBucketAcl, GetObjectAcl (the owner has FULL_CONTROL)
//
// Other sub-resources (PUT ?tagging, PUT ?acl, ?policy, ...) route to not_implemented, and so
// does a versionId other than "null" (GetObjectAttributes too, until versioning is wired).
#include "conformance/origin/http_message.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::origin {

enum class operation {
  list_buckets,
  create_bucket,
  delete_bucket,
  head_bucket,
  get_bucket_location,
  get_bucket_versioning,
  put_bucket_versioning,
  list_object_versions,
  list_objects_v1,
  list_objects_v2,
  list_multipart_uploads,
  delete_objects,
  get_object,
  head_object,
  put_object,
  copy_object,
  delete_object,
  create_multipart_upload,
  upload_part,
  upload_part_copy,
  complete_multipart_upload,
  abort_multipart_upload,
  list_parts,
  get_object_tagging,
  get_acl,
  get_object_attributes,
  not_implemented,
  method_not_allowed,
};

/// The S3 API name, e.g. "GetObject" (for logs).
std::string_view operation_name(operation op);

/// The decoded query parameters, in order.
struct query_params {
  std::vector<std::pair<std::string, std::string>> items;

  std::optional<std::string> get(std::string_view name) const;
  bool has(std::string_view name) const { return get(name).has_value(); }
};
query_params parse_query(std::string_view query);

struct s3_request {
  operation op = operation::not_implemented;
  std::string bucket;
  std::string key;
  query_params query;
  /// "/bucket/key", as S3 names the resource in error bodies.
  std::string resource;
  /// What not_implemented refers to (e.g. "?acl").
  std::string unsupported;
};

/// `domain`: the --domain for virtual-hosted buckets (empty: path style only).
s3_request route_request(const request_head& head, std::string_view domain);

} // namespace s3fault::origin
