#pragma once
// The value kinds fault parameters are written in: whole numbers, sizes, durations, rates and
// fractions. Each is accepted as a JSON number or as text ("64KiB", "250ms", "1MiB/s", "50%"),
// because the one-line `--fault` syntax and YAML turn unquoted numbers into JSON numbers. Text
// is read by the shared rules of text/ (text.hpp, quantities.hpp); JSON numbers here. Parsers
// return nullopt for anything else; the `*_example` texts say what is allowed, for messages.
#include "text/quantities.hpp"

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::faults {

/// A whole number from JSON, by the one rule of text/text.hpp: a JSON integer >= 0; a JSON number
/// whose value is whole (5.0, as YAML or a JSON encoder may write 5, is 5; 5.5 is not); or text
/// that text::parse_whole_number reads ("5", but not "5.0", " 5", "+5" or "-0"). At most
/// 2^64 - 1; callers check their own range. Booleans, null and the rest are not numbers.
std::optional<std::uint64_t> whole_number(const nlohmann::json& value);

inline constexpr std::string_view size_example = "a size like 1MiB";
inline constexpr std::string_view duration_example = "a duration like 250ms";
inline constexpr std::string_view rate_example = "a rate like 1MiB/s";
inline constexpr std::string_view fraction_example = "a fraction like 50%";

/// Byte counts: text as text::parse_size reads it ("64KiB", "1000"), or a JSON number that is a
/// whole number (1000, 1000.0).
std::optional<std::uint64_t> parse_size(const nlohmann::json& value);

/// Durations: text as text::parse_duration reads it ("250ms", "2s", "3" for seconds), or a JSON
/// number of seconds (0.25). Not negative, at most a year.
std::optional<std::chrono::nanoseconds> parse_duration(const nlohmann::json& value);

/// Rates in bytes per second: text as text::parse_rate reads it ("1MiB/s", "100000"), or a JSON
/// number (100000; fractions round down). At least 1 byte/s.
std::optional<std::uint64_t> parse_rate(const nlohmann::json& value);

/// Request rates in requests per second: text as text::parse_request_rate reads it ("100",
/// "0.5", "2.5/s"), or a JSON number (0.001). Not negative; callers check their range.
std::optional<double> parse_request_rate(const nlohmann::json& value);

/// Fractions from 0 to 1: text as text::parse_fraction reads it ("50%", "0.5"), or a JSON number.
std::optional<double> parse_fraction(const nlohmann::json& value);

/// A place in a body: a byte offset or a fraction of the body's length.
struct size_or_fraction {
  std::optional<std::uint64_t> bytes; // set for a byte offset
  double percent = 0;                 // otherwise this many percent of the length

  /// The byte offset within a body of `length` bytes (a fraction rounds down); nullopt for a
  /// fraction when the length is unknown.
  std::optional<std::uint64_t> resolve(std::optional<std::uint64_t> length) const;
  /// A byte offset as a number, a fraction as "50%": what parse_size_or_fraction reads back.
  nlohmann::json to_json() const;
};

/// A byte offset (a JSON integer, or text parse_size accepts) or a fraction ("50%", "0.5", or a
/// JSON number with a fractional part such as 0.25). JSON 1 is one byte: write "100%" for all.
std::optional<size_or_fraction> parse_size_or_fraction(const nlohmann::json& value);

/// Canonical texts that the parsers above read back exactly ("250ms", "1MiB/s"), as actions
/// write their parameters back in to_json().
using text::format_duration;
using text::format_rate;

/// "FIELD: must be WHAT (got VALUE)", VALUE as compact JSON (strings in double quotes), cut at
/// 60 characters.
std::string must_be(std::string_view field, std::string_view what, const nlohmann::json& got);
/// VALUE as `must_be` quotes it.
std::string describe_got(const nlohmann::json& value);
/// `text` cut at 60 characters ("..." in the last three), as messages quote what they got.
std::string shortened(std::string_view text);

} // namespace s3fault::faults
