#pragma once
// Reading UTF-8 strictly, the one rule for every check of it (rules files, XML bodies): no
// overlong forms, no UTF-16 surrogates, nothing above U+10FFFF.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace s3fault::text {

/// One character read from UTF-8: its code point and how many bytes it took (1 to 4).
struct utf8_character {
  std::uint32_t code = 0;
  std::size_t length = 0;
};

/// The character that starts at `text[at]`, or none when the bytes there are not well-formed
/// UTF-8 (or `at` is past the end).
std::optional<utf8_character> read_utf8(std::string_view text, std::size_t at);

} // namespace s3fault::text
