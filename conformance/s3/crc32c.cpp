#include "conformance/s3/crc32c.hpp"

#include <isa-l/crc.h>

#include <algorithm>
#include <climits>

namespace s3fault::s3 {

std::uint32_t crc32c_update(std::uint32_t crc, std::string_view data) {
  // ISA-L's crc32_iscsi leaves both inversions to the caller, and takes an int length.
  crc = ~crc;
  while (!data.empty()) {
    const auto piece = std::min<std::size_t>(data.size(), INT_MAX);
    // crc32_iscsi only reads the buffer; its parameter is not const.
    auto* bytes = reinterpret_cast<unsigned char*>(const_cast<char*>(data.data()));
    crc = crc32_iscsi(bytes, static_cast<int>(piece), crc);
    data.remove_prefix(piece);
  }
  return ~crc;
}

} // namespace s3fault::s3
