#pragma once
// Blanks, ASCII case and whole numbers, the way config values, HTTP fields, query parameters and
// command-line values are read everywhere in s3fault. Everything is ASCII and locale-free: HTTP
// and S3 are case-insensitive and blank-tolerant in ASCII only.
#include <charconv>
#include <concepts>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::text {

/// `text` without leading and trailing spaces and tabs (HTTP's optional whitespace).
std::string_view trim(std::string_view text);

/// The non-empty pieces of `text` between `separator`s ("a,,b," -> {a, b}).
std::vector<std::string> split_nonempty(std::string_view text, char separator);

/// The pieces with `separator` between them.
template <class Pieces> std::string join(const Pieces& pieces, std::string_view separator) {
  std::string joined;
  bool first = true;
  for (const auto& piece : pieces) {
    joined += first ? "" : separator;
    joined += piece;
    first = false;
  }
  return joined;
}

/// ASCII case-insensitive equality (HTTP methods, header names, unit suffixes, S3 tokens).
bool iequal(std::string_view a, std::string_view b);

/// `text` with A-Z lowered (ascii_lower) or a-z raised (ascii_upper); other bytes unchanged.
std::string ascii_lower(std::string_view text);
std::string ascii_upper(std::string_view text);

/// The one rule for a whole number written as text: one or more ASCII digits and nothing else.
/// No sign ("+5", "-0"), no blanks (" 5"), no decimal point ("5.0"), no exponent ("5e0"), no hex
/// ("0x5"). Leading zeros are allowed ("007" is 7). A value too large for T is refused, never
/// wrapped or clamped; callers then check their own range.
/// JSON values (rules files, the admin API) follow faults::whole_number in faults/values.hpp:
/// a number counts when its value is whole, so JSON 5.0 (as YAML or a JSON encoder may write 5)
/// is 5, while the text "5.0" is not a whole number.
template <std::unsigned_integral T = std::uint64_t>
std::optional<T> parse_whole_number(std::string_view text) {
  T value = 0;
  const char* const end = text.data() + text.size();
  // from_chars reads no sign, blank or prefix for an unsigned type; the whole text must be used.
  const auto [stop, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || stop != end) {
    return std::nullopt;
  }
  return value;
}

} // namespace s3fault::text
