#pragma once
// Reading back the names the gate's enums are written with (to_string), for reports read from
// JSON: the names are written once, in each enum's to_string.
#include <array>
#include <optional>
#include <string_view>

namespace s3fault::gate {

/// The value of `all` whose to_string is `text`, or nullopt.
template <typename Enum, std::size_t N>
std::optional<Enum> enum_named(std::string_view text, const std::array<Enum, N>& all) {
  for (const auto value : all) {
    if (to_string(value) == text) {
      return value;
    }
  }
  return std::nullopt;
}

} // namespace s3fault::gate
