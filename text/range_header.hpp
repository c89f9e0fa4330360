#pragma once
// The Range header of a request, "bytes=A-B", "bytes=A-" or "bytes=-N", read in one place: by the
// origin (what it serves) and by the fault rules (match.covers: which request asks for a byte).
#include <cstdint>
#include <optional>
#include <string_view>

namespace s3fault::text {

/// A single byte range as written in a Range header.
struct byte_range_spec {
  std::optional<std::uint64_t> first; // absent: suffix range "-N"
  std::optional<std::uint64_t> last;  // absent: open range "A-"
};

/// Parses "bytes=A-B", "bytes=A-" or "bytes=-N". nullopt for anything else (several ranges,
/// another unit, A > B, garbage): S3, like RFC 7233, then ignores the header.
std::optional<byte_range_spec> parse_range(std::string_view text);

} // namespace s3fault::text
