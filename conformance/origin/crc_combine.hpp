#pragma once
// Combining CRCs of consecutive pieces into the CRC of their concatenation, without the bytes:
// how a FULL_OBJECT checksum of a multipart upload comes from its parts' checksums. The GF(2)
// matrix method of zlib's crc32_combine, for any reflected 32-bit CRC with the usual
// pre- and post-inversion (CRC-32 and CRC-32C). What the checksums must be: docs/contract.md,
// "Checksums (optional)".
#include <cstdint>

namespace s3fault::origin {

inline constexpr std::uint32_t crc32_polynomial = 0xEDB88320u;  // ISO-HDLC, reflected
inline constexpr std::uint32_t crc32c_polynomial = 0x82F63B78u; // Castagnoli, reflected

/// The CRC of A followed by B, given crc(A), crc(B) and the length of B.
std::uint32_t crc_combine(std::uint32_t polynomial, std::uint32_t crc_a, std::uint32_t crc_b,
                          std::uint64_t length_b);

} // namespace s3fault::origin
