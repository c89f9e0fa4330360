#pragma once
// An HTTP head with its field lines stably sorted by name, one line per "\n". Beast files a
// repeated field name after the last field of that name, so the Beast path forwards
// "A: 1, B: 2, A: 3" as "A: 1, A: 3, B: 2" where the plain path keeps the store's order; both
// keep the order of one name's values, which is all HTTP gives meaning to (RFC 9110 5.3).
// Comparing grouped heads compares the two paths on everything else.
#include <algorithm>
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::testing {

inline std::string grouped_head(std::string_view head) {
  std::vector<std::string_view> lines;
  for (std::size_t at = 0; at < head.size();) {
    std::size_t end = head.find("\r\n", at);
    end = end == std::string_view::npos ? head.size() : end;
    lines.push_back(head.substr(at, end - at));
    at = end + 2;
  }
  const auto name_of = [](std::string_view line) {
    std::string name(line.substr(0, line.find(':')));
    for (char& c : name) {
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return name;
  };
  if (!lines.empty()) {
    std::stable_sort(lines.begin() + 1, lines.end(), [&](std::string_view a, std::string_view b) {
      return name_of(a) < name_of(b);
    });
  }
  std::string out;
  for (const auto line : lines) {
    out.append(line).append("\n");
  }
  return out;
}

} // namespace s3fault::testing
