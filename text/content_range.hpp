#pragma once
// Content-Range of a 206 as S3 sends it, "bytes FIRST-LAST/TOTAL", read and written in one place:
// by the origin and the audit's expectations (written), the readers and bench (read), and the
// proxy when a truncation moves the end of the range (both).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::text {

/// The bytes FIRST..LAST (inclusive) of an object of TOTAL bytes.
struct content_range {
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  std::uint64_t total = 0;

  std::uint64_t length() const { return last - first + 1; }
};

/// "bytes FIRST-LAST/TOTAL" exactly: the unit in lower case, no blanks, each number a whole
/// number (text/text.hpp), FIRST <= LAST < TOTAL. The unsatisfied form "bytes */TOTAL" and an
/// unknown total "/*" are refused: every reader of it here needs all three numbers.
std::optional<content_range> parse_content_range(std::string_view value);

/// "bytes FIRST-LAST/TOTAL".
std::string format_content_range(std::uint64_t first, std::uint64_t last, std::uint64_t total);

} // namespace s3fault::text
