#pragma once
// How a GET or HEAD of an existing object is answered: the conditional headers, then partNumber
// or Range, decide the status, the bytes and the range headers. Pure functions of plain values,
// so every rule of the GetObject contract (docs/contract.md: "partNumber (GET and HEAD)", "Range",
// "Conditional requests") is unit-tested here.
//
//   request ──parse_part_number (before the lookup)──> part number or 400
//   object + request ──evaluate_preconditions──> 412 | 304 | go on
//                    ──partNumber──> part bytes, 206, parts count | 416 InvalidPartNumber
//                    ──Range──────> range bytes, 206 | 416 InvalidRange | whole object 200
#include "conformance/origin/http_date.hpp"
#include "conformance/origin/s3_error.hpp"
#include "text/range_header.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace s3fault::origin {

/// What read planning needs to know about the object.
struct object_facts {
  std::uint64_t size = 0;
  std::string etag; // without quotes
  time_point last_modified;
  /// Part sizes of a multipart object; empty for an object from a single PUT (or a copy).
  std::vector<std::uint64_t> part_sizes;
};

/// The read-related parts of the request, as the header values were received.
struct read_request {
  bool head = false;
  std::optional<std::string> range;
  std::optional<unsigned> part_number; // already validated by parse_part_number
  std::optional<std::string> if_match;
  std::optional<std::string> if_none_match;
  std::optional<std::string> if_modified_since;
  std::optional<std::string> if_unmodified_since;
};

/// The answer: which bytes, with which status and range headers.
struct read_plan {
  unsigned status = 200; // 200, 206 or 304
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::optional<std::string> content_range; // "bytes S-E/TOTAL"
  std::optional<unsigned> parts_count;      // x-amz-mp-parts-count
  std::optional<unsigned> part_number;      // the part served, when partNumber was given
};

/// `?partNumber=` as received (nullopt when absent). An integer in 1..10000, else 400
/// InvalidArgument. Checked before the object is looked up, as S3 does.
std::variant<std::optional<unsigned>, s3_error>
parse_part_number(const std::optional<std::string>& text);

/// partNumber and Range together: 400 InvalidRequest.
std::optional<s3_error> check_part_number_with_range(const read_request& request);

/// The outcome of If-Match, If-Unmodified-Since, If-None-Match and If-Modified-Since, in the
/// order RFC 7232 section 6 gives (S3 follows it):
///   If-Match false -> 412 (an If-Match that holds makes If-Unmodified-Since irrelevant);
///   else If-Unmodified-Since false -> 412;
///   If-None-Match false (it matches) -> 304 (a non-matching If-None-Match makes
///   If-Modified-Since irrelevant); else If-Modified-Since false -> 304.
/// Dates that do not parse are ignored.
enum class precondition_outcome { proceed, not_modified, failed_if_match, failed_if_unmodified };
precondition_outcome evaluate_preconditions(const object_facts& object,
                                            const read_request& request);

/// True when an If-Match / If-None-Match list ("*", "\"etag\"", "etag", "W/\"etag\"", comma
/// separated) names the ETag.
bool etag_list_matches(std::string_view list, std::string_view etag);

using text::byte_range_spec;
using text::parse_range;

/// The bytes a range selects in an object of `size`: the end is clamped, a suffix longer than
/// the object selects all of it. nullopt when unsatisfiable (start at or past the end, a suffix
/// of 0, any range of a zero-byte object).
struct byte_span {
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};
std::optional<byte_span> resolve_range(const byte_range_spec& range, std::uint64_t size);

/// Everything together, for an object that exists.
std::variant<read_plan, s3_error> plan_read(const object_facts& object,
                                            const read_request& request);

} // namespace s3fault::origin
