#include "text/utf8.hpp"

namespace s3fault::text {

std::optional<utf8_character> read_utf8(std::string_view text, std::size_t at) {
  if (at >= text.size()) {
    return std::nullopt;
  }
  const auto lead = static_cast<unsigned char>(text[at]);
  if (lead < 0x80) {
    return utf8_character{lead, 1};
  }
  const std::size_t length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
  if (length == 0 || lead > 0xF4 || text.size() - at < length) {
    return std::nullopt; // a continuation byte first, no lead of UTF-8, or cut short
  }
  std::uint32_t code = lead & (0xFFu >> (length + 1));
  for (std::size_t k = 1; k < length; ++k) {
    const auto next = static_cast<unsigned char>(text[at + k]);
    if ((next & 0xC0) != 0x80) {
      return std::nullopt;
    }
    code = (code << 6) | (next & 0x3Fu);
  }
  constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < smallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
    return std::nullopt; // overlong, out of range, or a surrogate
  }
  return utf8_character{code, length};
}

} // namespace s3fault::text
