#pragma once
// A synchronous S3 client for the conformance jobs: audit (sees exactly what the store sent),
// gate readers (part-wise and range-wise GETs) and bench (one client per thread, timings).
//
// Every call returns a `response` (or a `parsed_response<T>` that also carries the parsed XML
// result): status, reason, headers in wire order, the body or its count and hashes, timings,
// and any transport failure as a value. Nothing throws after construction. A response whose
// body fell short of its Content-Length carries failure.ec == client_errc::short_body with the
// bytes that did arrive.
//
//   s3_client client({.endpoint = "http://127.0.0.1:9000",
//                     .credentials = {"s3fault", "s3fault-secret", ""}});
//   client.put_object("bucket", "key", body_source::from_string("hello"));
//   get_options get;
//   get.part_number = 2;
//   auto part = client.get_object("bucket", "key", get);
//   part.header("x-amz-mp-parts-count");
#include "conformance/client/http_connection.hpp"
#include "conformance/client/request_builder.hpp"
#include "conformance/client/s3_xml.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::client {

struct client_config {
  std::string endpoint{};        // http(s)://HOST[:PORT]
  s3::credentials credentials{}; // required unless anonymous
  bool anonymous = false;        // send nothing signed
  std::string region = "us-east-1";
  addressing_style style = addressing_style::path;
  tls_options tls{};
  deadlines timeouts{};
  std::uint32_t max_head_bytes = 64 * 1024;
  std::size_t max_error_body_bytes = 1024 * 1024;
  bool retry_on_stale_connection = true;
  std::string user_agent = "s3fault-client";
  /// The time used for signatures; system_clock::now when empty (tests inject a fixed one).
  std::function<std::chrono::system_clock::time_point()> clock{};
};

/// A response plus the XML result it carried.
template <class T> struct parsed_response {
  response raw;
  std::optional<T> value;  // set when the store answered 2xx with a document that parsed
  std::string parse_error; // why `value` is empty although the exchange succeeded
  bool ok() const { return raw.ok() && value.has_value(); }
};

/// Additions any operation accepts, for checks that need a little more than the operation
/// sends: they go after the operation's own headers and query parameters.
struct request_extras {
  header_list extra_headers;
  query_list extra_query;
  payload_signing payload = payload_signing::automatic;
  std::optional<std::chrono::seconds> presign_expires; // presigned URL instead of a header
};

struct put_options : request_extras {
  std::string content_type;
  header_list metadata; // names without the x-amz-meta- prefix
  bool content_md5 = false;
  /// "crc32", "crc32c", "sha1" or "sha256": sends x-amz-checksum-<algo> over the body.
  std::string checksum_algorithm;
  /// Sent instead of the computed checksum (to test a store's verification).
  std::string checksum_value;
};

struct upload_part_options : request_extras {
  bool content_md5 = false;
  std::string checksum_algorithm;
  std::string checksum_value;
};

/// GetObject and HeadObject.
struct get_options : request_extras {
  std::string range;               // a Range value as sent, e.g. byte_range(0, 99)
  std::optional<long> part_number; // ?partNumber=N (odd values: use extra_query)
  std::string version_id;
  std::string if_match;
  std::string if_none_match;
  std::string if_modified_since; // HTTP-date, as sent
  std::string if_unmodified_since;
  bool checksum_mode = false; // x-amz-checksum-mode: ENABLED
  /// response-content-type, response-content-disposition, ... as query parameters.
  std::vector<std::pair<std::string, std::string>> response_overrides;
  read_options read; // body target and hashes (ignored for HEAD)
};

struct list_objects_options : request_extras {
  std::string prefix;
  std::string delimiter;
  std::optional<std::uint32_t> max_keys;
  std::string continuation_token;
  std::string start_after;
};

struct create_bucket_options : request_extras {
  /// Empty: the client's region, as the AWS CLI and SDKs send it; none for us-east-1, where S3
  /// refuses one (and a regional endpoint refuses a bucket without it).
  std::string location_constraint;
};

struct copy_object_options : request_extras {
  std::string metadata_directive; // COPY or REPLACE; empty: not sent
  std::string content_type;
  header_list metadata;
  std::string copy_source_if_match;
  std::string copy_source_version_id;
};

struct list_parts_options : request_extras {
  std::optional<std::uint32_t> max_parts;
  std::string part_number_marker;
};

/// GetObjectAttributes (GET /bucket/key?attributes).
struct object_attributes_options : request_extras {
  /// x-amz-object-attributes, as sent.
  std::string attributes = "ETag,Checksum,ObjectParts,ObjectSize,StorageClass";
  std::optional<std::uint32_t> max_parts; // x-amz-max-parts
  std::string part_number_marker;         // x-amz-part-number-marker
  std::string version_id;
};

/// ListObjectVersions (GET /bucket?versions).
struct list_versions_options : request_extras {
  std::string prefix;
  std::string key_marker;
  std::string version_id_marker;
  std::optional<std::uint32_t> max_keys;
};

/// ListMultipartUploads (GET /bucket?uploads).
struct list_uploads_options : request_extras {
  std::string prefix;
  std::string key_marker;
  std::string upload_id_marker;
  std::optional<std::uint32_t> max_uploads;
};

/// send_raw: a request sent as given, for checks that need odd requests.
struct raw_options {
  bool add_host = true;           // Host: the endpoint's authority, unless one is given
  bool add_content_length = true; // for a body (or PUT/POST), unless a length/TE is given
  bool sign = false;              // SigV4 over the target and headers exactly as given
  read_options read;
};

/// Range values: "bytes=first-last", "bytes=first-", "bytes=-suffix".
std::string byte_range(std::uint64_t first, std::uint64_t last);
std::string byte_range_from(std::uint64_t first);
std::string byte_range_suffix(std::uint64_t length);

class s3_client {
public:
  /// Throws std::invalid_argument for a bad endpoint or missing credentials and
  /// std::runtime_error for unusable TLS settings (config errors are fatal at start-up).
  explicit s3_client(client_config config);
  ~s3_client();
  s3_client(s3_client&&) noexcept;
  s3_client& operator=(s3_client&&) noexcept;

  /// Any S3 request, built, signed and sent.
  response send(const s3_request& request, const read_options& read = {});
  /// A request sent as given (see raw_options).
  response send_raw(std::string_view method, std::string_view target, header_list headers,
                    const body_source& body = {}, const raw_options& options = {});
  /// A presigned URL for `method` on bucket/key (absolute, with scheme and host).
  std::string presign_url(std::string_view method, std::string_view bucket, std::string_view key,
                          std::chrono::seconds expires, const query_list& query = {});

  // Objects.
  response put_object(std::string_view bucket, std::string_view key, const body_source& body,
                      const put_options& options = {});
  response get_object(std::string_view bucket, std::string_view key,
                      const get_options& options = {});
  response head_object(std::string_view bucket, std::string_view key,
                       const get_options& options = {});
  response delete_object(std::string_view bucket, std::string_view key,
                         const request_extras& options = {});
  parsed_response<delete_objects_result> delete_objects(std::string_view bucket,
                                                        const std::vector<std::string>& keys,
                                                        bool quiet = false,
                                                        const request_extras& options = {});
  parsed_response<list_objects_result> list_objects_v2(std::string_view bucket,
                                                       const list_objects_options& options = {});
  parsed_response<copy_object_result> copy_object(std::string_view source_bucket,
                                                  std::string_view source_key,
                                                  std::string_view bucket, std::string_view key,
                                                  const copy_object_options& options = {});

  /// DeleteObject of one version (DELETE /bucket/key?versionId=ID).
  response delete_object_version(std::string_view bucket, std::string_view key,
                                 std::string_view version_id, const request_extras& options = {});
  parsed_response<object_attributes_result>
  get_object_attributes(std::string_view bucket, std::string_view key,
                        const object_attributes_options& options = {});

  // Buckets.
  response create_bucket(std::string_view bucket, const create_bucket_options& options = {});
  response delete_bucket(std::string_view bucket, const request_extras& options = {});
  response head_bucket(std::string_view bucket, const request_extras& options = {});
  parsed_response<list_buckets_result> list_buckets(const request_extras& options = {});
  /// PutBucketVersioning with Status `status` ("Enabled", "Suspended"), with Content-MD5 (AWS
  /// requires a body digest).
  response put_bucket_versioning(std::string_view bucket, std::string_view status,
                                 const request_extras& options = {});
  parsed_response<list_versions_result>
  list_object_versions(std::string_view bucket, const list_versions_options& options = {});

  // Multipart uploads.
  parsed_response<initiate_multipart_result>
  create_multipart_upload(std::string_view bucket, std::string_view key,
                          const put_options& options = {});
  /// The part's ETag is response::header("ETag").
  response upload_part(std::string_view bucket, std::string_view key, std::string_view upload_id,
                       int part_number, const body_source& body,
                       const upload_part_options& options = {});
  parsed_response<complete_multipart_result>
  complete_multipart_upload(std::string_view bucket, std::string_view key,
                            std::string_view upload_id, const std::vector<completed_part>& parts,
                            const request_extras& options = {});
  response abort_multipart_upload(std::string_view bucket, std::string_view key,
                                  std::string_view upload_id, const request_extras& options = {});
  parsed_response<list_parts_result> list_parts(std::string_view bucket, std::string_view key,
                                                std::string_view upload_id,
                                                const list_parts_options& options = {});
  parsed_response<list_uploads_result>
  list_multipart_uploads(std::string_view bucket, const list_uploads_options& options = {});

  const client_config& config() const { return config_; }
  const connection_counters& counters() const;
  /// Closes the connection; the next call opens a new one.
  void close();
  /// Opens a new connection now, closing the one there was: the next call uses it.
  transport_error reconnect();

private:
  std::chrono::system_clock::time_point now() const;
  s3_request make_request(std::string_view method, std::string_view bucket, std::string_view key,
                          const request_extras& extras) const;
  /// Adds Content-MD5 and x-amz-checksum-<algo> over the body when asked, then sends.
  response send_with_integrity(s3_request request, bool content_md5,
                               std::string_view checksum_algorithm,
                               std::string_view checksum_value);

  client_config config_;
  request_settings settings_;
  http_connection connection_;
};

} // namespace s3fault::client
