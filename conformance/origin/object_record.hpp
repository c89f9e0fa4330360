#pragma once
// What the store keeps per object and per multipart upload: metadata plus the blobs holding
// the bytes. Records are immutable once published (shared_ptr<const object_record>), so a GET
// takes one under the index lock and streams from it after the lock is released.
#include "conformance/origin/blob.hpp"

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace s3fault::origin {

using time_point = std::chrono::system_clock::time_point;
using field_list = std::vector<std::pair<std::string, std::string>>;

/// A flexible checksum (x-amz-checksum-<algorithm>) as S3 reports it.
struct checksum_value {
  std::string algorithm; // lower case: crc32, crc32c, sha1, sha256
  std::string value;     // base64, "-N" appended for a composite
  std::string type;      // FULL_OBJECT or COMPOSITE
};

/// One part of a multipart object, as GET ?partNumber=N serves it.
struct part_extent {
  std::uint64_t size = 0;
  std::string checksum; // base64 of this part's checksum, when it carried one
};

/// The version id of a version written while versioning was off or suspended.
inline constexpr const char* null_version_id = "null";

struct object_record {
  /// This version's id: null_version_id, or a new id for each write while versioning is on.
  std::string version_id = null_version_id;
  /// A delete marker: a version without bytes that hides the key (size 0, no etag).
  bool delete_marker = false;
  /// Publication order, store-wide: a key's versions sort by it, and a data directory keeps it.
  std::uint64_t sequence = 0;
  std::uint64_t size = 0;
  std::string etag; // without quotes
  time_point last_modified;
  /// Content-Type, Content-Encoding, Content-Disposition, Content-Language, Cache-Control,
  /// Expires, as given at upload (Content-Type always present).
  field_list content_headers;
  /// x-amz-meta-* with lower-case names, as given at upload.
  field_list user_metadata;
  std::optional<checksum_value> checksum;
  /// Non-empty only for objects made by a multipart upload; part i is segments[i].
  std::vector<part_extent> parts;
  /// The bytes, in order.
  std::vector<std::shared_ptr<const blob>> segments;

  bool multipart() const { return !parts.empty(); }
};

/// Object metadata given when an upload starts (PutObject, CreateMultipartUpload, CopyObject
/// with REPLACE).
struct object_metadata {
  field_list content_headers;
  field_list user_metadata;
};

/// A part received by UploadPart, waiting for CompleteMultipartUpload.
struct part_record {
  std::uint64_t size = 0;
  std::string md5_raw; // ETag = hex of this
  std::string checksum_algorithm;
  std::string checksum; // base64
  time_point last_modified;
  std::shared_ptr<const blob> data;
};

/// A multipart upload in progress.
struct upload_record {
  std::string key;
  std::string upload_id;
  time_point initiated;
  object_metadata metadata;
  std::string checksum_algorithm; // from x-amz-checksum-algorithm, lower case; may be empty
  std::string checksum_type;      // COMPOSITE (default) or FULL_OBJECT (CRC algorithms only)
  std::map<unsigned, part_record> parts;
  std::uint64_t started = 0; // object_store::write_started() at creation
};

} // namespace s3fault::origin
