#include "conformance/origin/version_chain.hpp"

#include "conformance/origin/listing.hpp"

#include <algorithm>

namespace s3fault::origin {

version_list add_version(version_list& versions, object_ptr record, versioning_status status) {
  version_list replaced;
  if (status == versioning_status::off) {
    replaced.swap(versions);
  } else if (status == versioning_status::suspended) {
    if (auto old = remove_version(versions, null_version_id)) {
      replaced.push_back(std::move(old));
    }
  }
  versions.insert(versions.begin(), std::move(record));
  return replaced;
}

object_ptr find_version(const version_list& versions, std::string_view version_id) {
  const auto found = std::find_if(versions.begin(), versions.end(),
                                  [&](const auto& v) { return v->version_id == version_id; });
  return found == versions.end() ? nullptr : *found;
}

object_ptr remove_version(version_list& versions, std::string_view version_id) {
  const auto found = std::find_if(versions.begin(), versions.end(),
                                  [&](const auto& v) { return v->version_id == version_id; });
  if (found == versions.end()) {
    return nullptr;
  }
  object_ptr removed = std::move(*found);
  versions.erase(found);
  return removed;
}

object_ptr current_version(const version_list& versions) {
  if (versions.empty() || versions.front()->delete_marker) {
    return nullptr;
  }
  return versions.front();
}

namespace {

version_summary summarize_version(const std::string& key, const object_record& record,
                                  bool latest) {
  version_summary out;
  out.key = key;
  out.version_id = record.version_id;
  out.latest = latest;
  out.delete_marker = record.delete_marker;
  out.size = record.size;
  out.etag = record.etag;
  out.last_modified = record.last_modified;
  out.checksum_algorithm = record.checksum ? record.checksum->algorithm : std::string();
  return out;
}

/// The common prefix `key` rolls up into under `request`, or empty.
std::string rolled_up_prefix(const std::string& key, const version_listing_request& request) {
  if (request.delimiter.empty()) {
    return {};
  }
  const auto at = key.find(request.delimiter, request.prefix.size());
  return at == std::string::npos ? std::string() : key.substr(0, at + request.delimiter.size());
}

} // namespace

version_listing select_versions(const std::map<std::string, version_list>& keys,
                                const version_listing_request& request) {
  version_listing page;
  if (request.max_keys == 0) {
    return page;
  }
  auto it = keys.lower_bound(request.prefix);
  const bool resume_inside_key = !request.key_marker.empty() && !request.version_id_marker.empty();
  if (!request.key_marker.empty() && request.key_marker >= request.prefix) {
    it = resume_inside_key ? keys.lower_bound(request.key_marker)
                           : keys.upper_bound(request.key_marker);
  }
  unsigned shown = 0;
  const auto full = [&] {
    if (shown < request.max_keys) {
      return false;
    }
    page.truncated = true;
    return true;
  };
  for (; it != keys.end(); ++it) {
    const auto& [key, versions] = *it;
    if (key.compare(0, request.prefix.size(), request.prefix) != 0) {
      break;
    }
    const std::string prefix = rolled_up_prefix(key, request);
    if (!prefix.empty()) {
      if (prefix == request.key_marker ||
          (!page.common_prefixes.empty() && page.common_prefixes.back() == prefix)) {
        continue;
      }
      if (full()) {
        break;
      }
      ++shown;
      page.common_prefixes.push_back(prefix);
      page.next_key_marker = prefix;
      page.next_version_id_marker.clear();
      continue;
    }
    std::size_t first = 0;
    if (resume_inside_key && key == request.key_marker) {
      while (first < versions.size() && versions[first]->version_id != request.version_id_marker) {
        ++first;
      }
      ++first; // after the marker; past the end when the marker is unknown
    }
    for (std::size_t i = first; i < versions.size(); ++i) {
      if (full()) {
        return page;
      }
      ++shown;
      page.versions.push_back(summarize_version(key, *versions[i], i == 0));
      page.next_key_marker = key;
      page.next_version_id_marker = versions[i]->version_id;
    }
    if (page.truncated) {
      break;
    }
  }
  if (!page.truncated) {
    page.next_key_marker.clear();
    page.next_version_id_marker.clear();
  }
  return page;
}

} // namespace s3fault::origin
