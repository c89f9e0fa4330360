#include "faults/rule.hpp"

#include "text/range_header.hpp"
#include "text/text.hpp"

#include <algorithm>
#include <cctype>

namespace s3fault::faults {
namespace {

// Matches one `[...]` set at the start of `pattern` against `c`; sets `length` to the set's size
// in the pattern (0 when the bracket is not closed: then it is a literal '[').
bool set_matches(std::string_view pattern, char c, std::size_t& length) {
  std::size_t i = 1;
  const bool negate = i < pattern.size() && (pattern[i] == '!' || pattern[i] == '^');
  if (negate) {
    ++i;
  }
  bool found = false;
  const std::size_t first = i;
  for (; i < pattern.size() && (pattern[i] != ']' || i == first); ++i) {
    if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
      found = found || (c >= pattern[i] && c <= pattern[i + 2]);
      i += 2;
    } else {
      found = found || c == pattern[i];
    }
  }
  if (i >= pattern.size()) {
    length = 0;
    return false;
  }
  length = i + 1;
  return found != negate;
}

} // namespace

bool glob_matches(std::string_view pattern, std::string_view text) {
  // Iterative matcher with one backtrack point for the last '*' (linear in practice).
  std::size_t p = 0;
  std::size_t t = 0;
  std::size_t star = std::string_view::npos;
  std::size_t star_text = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      star_text = t;
      continue;
    }
    if (p < pattern.size()) {
      if (pattern[p] == '[') {
        std::size_t set_length = 0;
        const bool in_set = set_matches(pattern.substr(p), text[t], set_length);
        if (set_length > 0 && in_set) {
          p += set_length;
          ++t;
          continue;
        }
        if (set_length == 0 && text[t] == '[') { // an unclosed '[' is a literal
          ++p;
          ++t;
          continue;
        }
      } else if (pattern[p] == '?' || pattern[p] == text[t]) {
        ++p;
        ++t;
        continue;
      }
    }
    if (star == std::string_view::npos) {
      return false;
    }
    p = star + 1;
    t = ++star_text;
  }
  while (p < pattern.size() && pattern[p] == '*') {
    ++p;
  }
  return p == pattern.size();
}

bool request_matches(const match_spec& match, const s3_request& request, std::string_view method,
                     const header_lookup& headers) {
  if (!match.operations.empty() && std::find(match.operations.begin(), match.operations.end(),
                                             request.operation) == match.operations.end()) {
    return false;
  }
  if (!match.methods.empty() &&
      std::none_of(match.methods.begin(), match.methods.end(),
                   [&](const std::string& m) { return text::iequal(m, method); })) {
    return false;
  }
  if (!glob_matches(match.bucket, request.bucket) || !glob_matches(match.key, request.key)) {
    return false;
  }
  for (const auto& condition : match.query) {
    const auto value = request.query_value(condition.name);
    if (!value || (condition.value && *value != *condition.value)) {
      return false;
    }
  }
  for (const auto& condition : match.headers) {
    const auto value = headers ? headers(condition.name) : std::nullopt;
    if (!value) {
      return false;
    }
    if (condition.regex && !condition.regex->found_in(*value)) {
      return false;
    }
  }
  if (match.part_numbers) {
    if (!request.part_number || *request.part_number < match.part_numbers->first ||
        *request.part_number > match.part_numbers->second) {
      return false;
    }
  }
  return !match.covers || request_asks_for_byte(request, *match.covers);
}

bool request_asks_for_byte(const s3_request& request, std::uint64_t offset) {
  const auto range = request.range ? text::parse_range(*request.range) : std::nullopt;
  if (!range) {
    return !request.part_number;
  }
  return range->first && *range->first <= offset && (!range->last || offset <= *range->last);
}

} // namespace s3fault::faults
