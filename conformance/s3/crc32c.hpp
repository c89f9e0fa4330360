#pragma once
// CRC-32C (Castagnoli, reflected polynomial 0x82F63B78), the checksum S3 names `crc32c`.
// From ISA-L, which picks the CPU's CRC instructions at run time: the origin computes it over
// every upload that names it, and a byte table (0.4 GB/s) was slower than the network.
#include <cstdint>
#include <string_view>

namespace s3fault::s3 {

/// Continues a CRC-32C over `data`; start with `crc = 0`. The pre- and post-inversion are
/// applied inside, so `crc32c_update(crc32c_update(0, a), b) == crc32c_update(0, a + b)`.
std::uint32_t crc32c_update(std::uint32_t crc, std::string_view data);

} // namespace s3fault::s3
