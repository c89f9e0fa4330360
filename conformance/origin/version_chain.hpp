#pragma once
// A key's versions, newest first, and the rules S3 applies to them: what a write replaces under
// each versioning state, which version a delete removes or hides, and which entries one page of
// ListObjectVersions shows (docs/contract.md, "Versions"). Pure: the object_store calls these
// under its lock.
#include "conformance/origin/object_record.hpp"
#include "conformance/origin/store_views.hpp"

#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::origin {

using object_ptr = std::shared_ptr<const object_record>;
/// Newest first. Never empty while it is in a bucket's index.
using version_list = std::vector<object_ptr>;

/// Adds `record` as the newest version. Versioning off: it replaces every version; suspended:
/// it replaces the null version; enabled: it replaces nothing. Returns what it replaced, for
/// the caller to release after the lock.
version_list add_version(version_list& versions, object_ptr record, versioning_status status);

/// The version `version_id`, or nullptr.
object_ptr find_version(const version_list& versions, std::string_view version_id);

/// Removes the version `version_id` and returns it (nullptr when there is none).
object_ptr remove_version(version_list& versions, std::string_view version_id);

/// The object a plain GET sees: the newest version unless it is a delete marker.
object_ptr current_version(const version_list& versions);

struct version_listing_request {
  std::string prefix;
  std::string delimiter;
  std::string key_marker;
  std::string version_id_marker; // only with key_marker: resume after this version of it
  unsigned max_keys = 1000;
};

/// One page of ListObjectVersions over every key's versions. Each version, delete marker and
/// common prefix counts once against max_keys.
version_listing select_versions(const std::map<std::string, version_list>& keys,
                                const version_listing_request& request);

} // namespace s3fault::origin
