#pragma once
// Which keys and common prefixes one page of ListObjects (v1 or v2) shows. Pure: works on any
// sorted std::map keyed by object key, so the rules (prefix, delimiter roll-up, resuming after
// a key or a common prefix, max-keys, truncation) are tested on plain maps.
#include <cstdint>
#include <string>
#include <vector>

namespace s3fault::origin {

struct listing_request {
  std::string prefix;
  std::string delimiter;
  /// Exclusive start: the start-after, marker or decoded continuation token. Entries at or
  /// before it are skipped; when it is a common prefix, the keys it rolls up are skipped too.
  std::string after;
  unsigned max_keys = 1000;
};

struct listing_selection {
  std::vector<std::string> keys;
  std::vector<std::string> common_prefixes;
  bool truncated = false;
  /// The last key or common prefix shown: where the next page resumes.
  std::string last_entry;
};

/// The smallest string greater than every string that starts with `prefix`; empty when there
/// is none (the prefix is all 0xFF bytes).
std::string prefix_successor(std::string prefix);

/// One page of `entries` (a std::map<std::string, T>) for `request`. Every key and common
/// prefix counts once against max_keys; a page is truncated when an entry was left out.
template <class Map>
listing_selection select_listing(const Map& entries, const listing_request& request) {
  listing_selection page;
  if (request.max_keys == 0) {
    return page;
  }
  auto it = entries.lower_bound(request.prefix);
  if (!request.after.empty() && request.after >= request.prefix) {
    it = entries.upper_bound(request.after);
  }
  std::size_t shown = 0;
  while (it != entries.end()) {
    const std::string& key = it->first;
    if (key.compare(0, request.prefix.size(), request.prefix) != 0) {
      break; // keys with the prefix are contiguous: past them, nothing more can match
    }
    std::string rolled_up;
    if (!request.delimiter.empty()) {
      const auto at = key.find(request.delimiter, request.prefix.size());
      if (at != std::string::npos) {
        rolled_up = key.substr(0, at + request.delimiter.size());
      }
    }
    if (!rolled_up.empty() && rolled_up == request.after) {
      // Resuming after this common prefix: skip every key it rolls up.
      const std::string next = prefix_successor(rolled_up);
      it = next.empty() ? entries.end() : entries.lower_bound(next);
      continue;
    }
    if (shown == request.max_keys) {
      page.truncated = true;
      break;
    }
    ++shown;
    if (rolled_up.empty()) {
      page.keys.push_back(key);
      page.last_entry = key;
      ++it;
    } else {
      page.common_prefixes.push_back(rolled_up);
      page.last_entry = rolled_up;
      const std::string next = prefix_successor(rolled_up);
      it = next.empty() ? entries.end() : entries.lower_bound(next);
    }
  }
  return page;
}

} // namespace s3fault::origin
