#pragma once
// The XML bodies the origin sends: errors and every operation's result, in S3's element names
// and order, with the S3 namespace on result documents.
#include "conformance/origin/accounts.hpp"
#include "conformance/origin/s3_error.hpp"
#include "conformance/origin/store_views.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::origin {

/// `<Error><Code/><Message/><Resource/><RequestId/>...details...</Error>`
std::string render_error(const s3_error& error, std::string_view resource,
                         std::string_view request_id);

/// `owner`: the caller, whose buckets these are.
std::string render_list_buckets(const account_owner& owner,
                                const std::vector<bucket_summary>& buckets);
std::string render_bucket_location(std::string_view region);
/// `<VersioningConfiguration/>`, with a Status once versioning was turned on.
std::string render_versioning_configuration(versioning_status status);

/// The request parameters a listing echoes back.
struct listing_echo {
  std::string bucket;
  std::string prefix;
  std::string delimiter;
  unsigned max_keys = 1000;
  bool url_encoding = false;
  bool fetch_owner = false;                            // v2; v1 always shows owners
  std::string marker;                                  // v1
  std::optional<std::string> start_after;              // v2
  std::optional<std::string> continuation_token;       // v2, as sent
  std::string next_continuation_token;                 // v2, when truncated
  account_owner owner = owner_of(anonymous_owner_key); // the bucket's, shown as object owner
};
std::string render_list_objects_v1(const listing_echo& echo, const object_listing& page);
std::string render_list_objects_v2(const listing_echo& echo, const object_listing& page);

struct delete_outcome {
  std::string key;
  std::optional<s3_error> error;
  std::string version_id;        // the version asked for (VersionId); may be empty
  bool delete_marker = false;    // a marker was made or removed
  std::string marker_version_id; // the marker's version id (DeleteMarkerVersionId)
};
std::string render_delete_result(const std::vector<delete_outcome>& outcomes, bool quiet);

std::string render_copy_object_result(std::string_view etag, time_point last_modified,
                                      const std::optional<checksum_value>& checksum);
std::string render_copy_part_result(std::string_view etag, time_point last_modified);
std::string render_initiate_multipart(std::string_view bucket, std::string_view key,
                                      std::string_view upload_id);
std::string render_complete_multipart(std::string_view location, std::string_view bucket,
                                      std::string_view key, std::string_view etag,
                                      const std::optional<checksum_value>& checksum);

struct versions_echo {
  std::string bucket;
  account_owner owner = owner_of(anonymous_owner_key); // the bucket's, shown as version owner
  std::string prefix;
  std::string delimiter;
  std::string key_marker;
  std::string version_id_marker;
  unsigned max_keys = 1000;
  bool url_encoding = false;
};
std::string render_list_versions(const versions_echo& echo, const version_listing& page);

struct parts_echo {
  std::string bucket;
  unsigned part_number_marker = 0;
  unsigned max_parts = 1000;
  account_owner owner = owner_of(anonymous_owner_key); // the bucket's: Initiator and Owner
};
std::string render_list_parts(const parts_echo& echo, const part_listing& page);

struct uploads_echo {
  std::string bucket;
  std::string prefix;
  std::string delimiter;
  std::string key_marker;
  std::string upload_id_marker;
  unsigned max_uploads = 1000;
  bool url_encoding = false;
  account_owner owner = owner_of(anonymous_owner_key); // the bucket's: Initiator and Owner
};
std::string render_list_uploads(const uploads_echo& echo, const upload_listing& page);

/// `<Tagging><TagSet/></Tagging>`: the origin keeps no tags.
std::string render_empty_tagging();
/// An AccessControlPolicy granting FULL_CONTROL to the owner (of the bucket).
std::string render_owner_acl(const account_owner& owner);

/// "ChecksumCRC32" for "crc32", as S3's XML and response element names spell it.
std::string checksum_element_name(std::string_view algorithm);

} // namespace s3fault::origin
