#include "conformance/s3/crc32c.hpp"

#include <array>

namespace s3fault::s3 {
namespace {

constexpr std::uint32_t castagnoli_reflected = 0x82F63B78u;

constexpr std::array<std::uint32_t, 256> make_table() {
  std::array<std::uint32_t, 256> table{};
  for (std::uint32_t byte = 0; byte < 256; ++byte) {
    std::uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit) {
      crc = (crc & 1u) != 0 ? (crc >> 1) ^ castagnoli_reflected : crc >> 1;
    }
    table[byte] = crc;
  }
  return table;
}

constexpr std::array<std::uint32_t, 256> crc32c_table = make_table();

} // namespace

std::uint32_t crc32c_update(std::uint32_t crc, std::string_view data) {
  crc = ~crc;
  for (const char c : data) {
    crc = crc32c_table[(crc ^ static_cast<unsigned char>(c)) & 0xFFu] ^ (crc >> 8);
  }
  return ~crc;
}

} // namespace s3fault::s3
