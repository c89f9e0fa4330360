#pragma once
// The value kinds fault parameters are written in: sizes, durations, rates and fractions. Each
// is accepted as a JSON number or as text ("64KiB", "250ms", "1MiB/s", "50%"), because the
// one-line `--fault` syntax and YAML turn unquoted numbers into JSON numbers. Parsers return
// nullopt for anything else; the `*_example` texts say what is allowed, for error messages.
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

/// Byte counts: 1000, "1000", "10KB" (= 10000), "64KiB", "1.5GiB" (KB/MB/GB/TB are powers of
/// 1000, KiB/MiB/GiB/TiB powers of 1024, units case-insensitive). A plain byte count must be
/// whole; fractional amounts of a unit round down.
std::optional<std::uint64_t> parse_size_text(std::string_view text);
std::optional<std::uint64_t> parse_size(const nlohmann::json& value);

/// Durations: "250ms", "2s", "1.5s", "1m", "1h", "500us", "100ns"; a bare number (text or JSON)
/// is seconds. Not negative, at most a year.
std::optional<std::chrono::nanoseconds> parse_duration_text(std::string_view text);
std::optional<std::chrono::nanoseconds> parse_duration(const nlohmann::json& value);

/// Rates in bytes per second: "1MiB/s", "500KiB/s", "100000" or 100000. At least 1 byte/s.
std::optional<std::uint64_t> parse_rate_text(std::string_view text);
std::optional<std::uint64_t> parse_rate(const nlohmann::json& value);

/// Fractions from 0 to 1: "50%", "0.5" or 0.5.
std::optional<double> parse_fraction_text(std::string_view text);
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

/// The *_text parsers read text only; the others take any JSON value (numbers and text).

/// Canonical texts that the parsers above read back exactly.
std::string format_duration(std::chrono::nanoseconds duration); // "250ms", "2s", "1500us"
std::string format_rate(std::uint64_t bytes_per_second);        // "1MiB/s", "1000B/s"

/// "FIELD: must be WHAT (got VALUE)", VALUE as compact JSON (strings in double quotes), cut at
/// 60 characters.
std::string must_be(std::string_view field, std::string_view what, const nlohmann::json& got);
/// VALUE as `must_be` quotes it.
std::string describe_got(const nlohmann::json& value);
/// `text` cut at 60 characters ("..." in the last three), as messages quote what they got.
std::string shortened(std::string_view text);

} // namespace s3fault::faults
