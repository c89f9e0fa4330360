#include "text/content_range.hpp"

#include "text/text.hpp"

namespace s3fault::text {

std::optional<content_range> parse_content_range(std::string_view value) {
  constexpr std::string_view unit = "bytes ";
  if (!value.starts_with(unit)) {
    return std::nullopt;
  }
  value.remove_prefix(unit.size());
  const auto dash = value.find('-');
  const auto slash = value.find('/');
  if (dash == std::string_view::npos || slash == std::string_view::npos || dash > slash) {
    return std::nullopt;
  }
  const auto first = parse_whole_number(value.substr(0, dash));
  const auto last = parse_whole_number(value.substr(dash + 1, slash - dash - 1));
  const auto total = parse_whole_number(value.substr(slash + 1));
  if (!first || !last || !total || *first > *last || *last >= *total) {
    return std::nullopt;
  }
  return content_range{*first, *last, *total};
}

std::string format_content_range(std::uint64_t first, std::uint64_t last, std::uint64_t total) {
  return "bytes " + std::to_string(first) + "-" + std::to_string(last) + "/" +
         std::to_string(total);
}

} // namespace s3fault::text
