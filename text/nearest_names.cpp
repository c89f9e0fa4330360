#include "text/nearest_names.hpp"

#include "text/text.hpp"

#include <algorithm>
#include <numeric>

namespace s3fault::text {
namespace {

char lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

/// How far a name may be from `unknown` and still be offered.
std::size_t nearby_limit(std::string_view unknown, std::string_view name) {
  return std::max<std::size_t>(1, std::max(unknown.size(), name.size()) / 3);
}

} // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Optimal string alignment: three rows of the Levenshtein table plus adjacent swaps.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const bool same = lower(a[i - 1]) == lower(b[j - 1]);
      current[j] =
          std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (same ? 0 : 1)});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    before.swap(previous);
    previous.swap(current);
  }
  return previous[b.size()];
}

std::vector<std::string> nearest_names(std::string_view unknown,
                                       const std::vector<std::string>& known, std::size_t at_most) {
  struct candidate {
    std::size_t distance;
    std::size_t order;
  };
  const std::string unknown_lower = ascii_lower(unknown);
  std::vector<candidate> near;
  for (std::size_t i = 0; i < known.size(); ++i) {
    const auto distance = edit_distance(unknown, known[i]);
    const bool contains =
        unknown.size() >= 3 && ascii_lower(known[i]).find(unknown_lower) != std::string::npos;
    if (distance <= nearby_limit(unknown, known[i]) || contains) {
      near.push_back({contains ? std::min(distance, known[i].size()) : distance, i});
    }
  }
  std::stable_sort(near.begin(), near.end(),
                   [](const candidate& a, const candidate& b) { return a.distance < b.distance; });
  std::vector<std::string> names;
  for (const auto& each : near) {
    if (names.size() == at_most) {
      break;
    }
    if (std::find(names.begin(), names.end(), known[each.order]) == names.end()) {
      names.push_back(known[each.order]);
    }
  }
  return names;
}

std::string quoted_with_nearest(std::string_view unknown, const std::vector<std::string>& known) {
  std::string text = "'" + std::string(unknown) + "'";
  const auto near = nearest_names(unknown, known);
  if (!near.empty()) {
    text += " (nearest: ";
    for (std::size_t i = 0; i < near.size(); ++i) {
      text += (i > 0 ? ", " : "") + near[i];
    }
    text += ")";
  }
  return text;
}

} // namespace s3fault::text
