#pragma once
// The S3 operations of the origin. Each takes the routed request and answers, either at once
// or after reading the request body through a body_consumer. One file per family:
//   bucket_operations.cpp     ListBuckets, Create/Delete/HeadBucket, GetBucketLocation,
//                             Get/PutBucketVersioning
//   listing_operations.cpp    ListObjects (v1, v2), ListObjectVersions, ListMultipartUploads,
//                             ListParts
//   object_read_operations.cpp   GetObject, HeadObject
//   object_write_operations.cpp  PutObject, CopyObject, DeleteObject, DeleteObjects
//   multipart_operations.cpp  Create/Complete/AbortMultipartUpload, UploadPart(Copy)
//   attributes_operations.cpp GetObjectAttributes
#include "conformance/origin/accounts.hpp"
#include "conformance/origin/http_message.hpp"
#include "conformance/origin/object_store.hpp"
#include "conformance/origin/request_router.hpp"
#include "conformance/s3/sigv4.hpp"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::origin {

/// Validated settings every request reads (immutable while serving).
struct origin_settings {
  std::string region = "us-east-1";
  std::string domain;                         // virtual-hosted buckets when not empty
  std::optional<s3::credentials> credentials; // the first account; nullopt: --anonymous
  std::vector<s3::credentials> more_accounts; // --account, --accounts-file beyond the first
  std::uint64_t min_part_size = 5ull * 1024 * 1024;
  std::function<time_point()> clock = [] { return std::chrono::system_clock::now(); };

  /// The secret of `access_key` among the accounts; nullopt when no account has that key.
  std::optional<std::string> secret_of(std::string_view access_key) const;
  /// The access key of the account owning a bucket whose record names `stored_owner`: a record
  /// without one (an older data directory, or made with --anonymous) belongs to the first
  /// account (anonymous_owner_key with --anonymous).
  std::string owner_key(std::string_view stored_owner) const;
};

/// One request, as operations see it.
struct request_context {
  const request_head& head;
  const s3_request& request;
  const std::optional<s3::signing_context>& signing; // set when the signature was verified
  const origin_settings& settings;
  object_store& store;
  time_point now;

  /// The access key of the account that signed the request (the first account's, or
  /// anonymous_owner_key, with --anonymous). Defined in accounts.cpp.
  std::string caller() const;
  /// The owner of the request's bucket as S3 shows it (the caller's when there is no bucket).
  account_owner bucket_owner() const;
};

/// An operation's first answer: a response now, or a consumer for the request body (whose
/// finish() gives the response).
struct operation_start {
  origin_response response;
  std::unique_ptr<body_consumer> consumer;
};

operation_start answer(origin_response response);
/// 200 with an XML body.
origin_response xml_answer(std::string body);
operation_start answer_error(s3_error error, const request_context& context);
/// Reads a small body (XML) whole, up to `limit` bytes, checks its digests
/// (x-amz-content-sha256, Content-MD5 and, unless they describe something else as on
/// CompleteMultipartUpload, x-amz-checksum-*), then answers with `then(body)`.
operation_start read_small_body(const request_context& context,
                                std::function<origin_response(const std::string&)> then,
                                std::size_t limit = 2 * 1024 * 1024,
                                bool checksum_headers_describe_body = true);

struct received_payload;
/// Streams an upload body through the checks of payload_receiver.hpp into a new blob, then
/// answers with `then(payload)`. Header problems are answered at once, before the body.
operation_start receive_payload(const request_context& context, std::uint64_t max_size,
                                std::function<origin_response(received_payload)> then);

/// The ?versionId= of a request: nullopt when absent; InvalidArgument when empty.
std::variant<std::optional<std::string>, s3_error> requested_version(const query_params& query);
/// The object a GET, HEAD or the like names: the ?versionId= version, or the current one
/// (object_store::find_object's errors, and requested_version's).
std::variant<object_ptr, s3_error> find_requested_object(const request_context& context);
/// x-amz-version-id on an answer about `object`: when it has a version id of its own, or its
/// bucket's versioning was ever turned on (then "null" too), as S3 does.
void add_version_header(origin_response& response, const request_context& context,
                        const object_record& object);

using operation_handler = operation_start (*)(const request_context&);

// bucket_operations.cpp
operation_start list_buckets(const request_context& context);
operation_start create_bucket(const request_context& context);
operation_start delete_bucket(const request_context& context);
operation_start head_bucket(const request_context& context);
operation_start get_bucket_location(const request_context& context);
operation_start get_bucket_versioning(const request_context& context);
operation_start put_bucket_versioning(const request_context& context);
/// S3's bucket naming rules (3-63 characters of a-z 0-9 . -, ...).
bool is_valid_bucket_name(std::string_view name);

// listing_operations.cpp
operation_start list_objects_v1(const request_context& context);
operation_start list_objects_v2(const request_context& context);
operation_start list_multipart_uploads(const request_context& context);
operation_start list_parts(const request_context& context);
operation_start list_object_versions(const request_context& context);

// object_read_operations.cpp
operation_start get_object(const request_context& context);
operation_start head_object(const request_context& context);

operation_start get_object_tagging(const request_context& context);
operation_start get_acl(const request_context& context);

// attributes_operations.cpp
operation_start get_object_attributes(const request_context& context);

// object_write_operations.cpp
operation_start put_object(const request_context& context);
operation_start copy_object(const request_context& context);
operation_start delete_object(const request_context& context);
operation_start delete_objects(const request_context& context);

// multipart_operations.cpp
operation_start create_multipart_upload(const request_context& context);
operation_start upload_part(const request_context& context);
operation_start upload_part_copy(const request_context& context);
operation_start complete_multipart_upload(const request_context& context);
operation_start abort_multipart_upload(const request_context& context);

/// Largest single PUT or part, as in S3.
inline constexpr std::uint64_t max_put_size = 5ull * 1024 * 1024 * 1024;
/// Longest key, in bytes.
inline constexpr std::size_t max_key_length = 1024;

} // namespace s3fault::origin
