#pragma once
// Copies of store state handed out for listings: taken under the store's lock, rendered as XML
// after it is released.
#include "conformance/origin/object_record.hpp"

#include <optional>
#include <string>
#include <vector>

namespace s3fault::origin {

/// A bucket's versioning state. Once enabled, versioning can be suspended but never turned off.
enum class versioning_status { off, enabled, suspended };

struct bucket_summary {
  std::string name;
  time_point created;
  versioning_status versioning = versioning_status::off;
  std::string owner; // access key of the creating account; empty: the first account
};

struct object_summary {
  std::string key;
  std::uint64_t size = 0;
  std::string etag;
  time_point last_modified;
  std::string checksum_algorithm; // lower case; empty when none
};

/// One page of ListObjects / ListObjectsV2.
struct object_listing {
  std::vector<object_summary> objects;
  std::vector<std::string> common_prefixes;
  bool truncated = false;
  std::string last_entry; // last key or common prefix shown
};

/// One entry of ListObjectVersions: a version or a delete marker.
struct version_summary {
  std::string key;
  std::string version_id;
  bool latest = false;
  bool delete_marker = false;
  std::uint64_t size = 0;
  std::string etag;
  time_point last_modified;
  std::string checksum_algorithm;
};

/// One page of ListObjectVersions: keys in order, each key's versions newest first.
struct version_listing {
  std::vector<version_summary> versions;
  std::vector<std::string> common_prefixes;
  bool truncated = false;
  std::string next_key_marker;
  std::string next_version_id_marker;
};

struct part_summary {
  unsigned number = 0;
  std::uint64_t size = 0;
  std::string etag;
  time_point last_modified;
  std::string checksum_algorithm;
  std::string checksum;
};

/// One page of ListParts.
struct part_listing {
  std::string key;
  std::string upload_id;
  std::string checksum_algorithm;
  std::vector<part_summary> parts;
  bool truncated = false;
  unsigned next_marker = 0;
};

struct upload_summary {
  std::string key;
  std::string upload_id;
  time_point initiated;
};

/// One page of ListMultipartUploads.
struct upload_listing {
  std::vector<upload_summary> uploads;
  std::vector<std::string> common_prefixes;
  bool truncated = false;
  std::string next_key_marker;
  std::string next_upload_id_marker;
};

} // namespace s3fault::origin
