#pragma once
// Quantities written as text: sizes ("64KiB"), rates ("1MiB/s"), durations ("250ms") and
// fractions ("50%"). Rules files, `--fault` specs and command-line options all read them here,
// so "1MiB" means the same everywhere. Each is a decimal number ([0-9]+ or [0-9]+.[0-9]+, no
// sign or exponent) and a unit, with optional blanks around and between them; anything else is
// nullopt. Sizes given as JSON numbers are read by faults/values.hpp.
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::text {

/// Byte counts: "1000", "10KB" (= 10000), "64KiB", "1.5GiB", "12 B" (KB/MB/GB/TB are powers of
/// 1000, KiB/MiB/GiB/TiB powers of 1024, units case-insensitive). A plain byte count must be
/// whole; fractional amounts of a unit round down. A whole count is exact, up to 2^64 - 1.
std::optional<std::uint64_t> parse_size(std::string_view text);

/// Rates in bytes per second: "1MiB/s", "500KiB/s", "100000/s" or "100000". At least 1 byte/s;
/// fractions of a byte per second round down.
std::optional<std::uint64_t> parse_rate(std::string_view text);

/// Request rates in requests per second: "100", "0.5" or "2.5/s" (any number, callers check
/// their range).
std::optional<double> parse_request_rate(std::string_view text);

/// Durations: "250ms", "2s", "1.5s", "1m", "1h", "500us" (or "µs"), "100ns"; a bare number is
/// seconds. Not negative, at most a year; rounded to the nearest nanosecond.
std::optional<std::chrono::nanoseconds> parse_duration(std::string_view text);
/// A number of seconds (a JSON number, say) by the same rules: not negative, at most a year.
std::optional<std::chrono::nanoseconds> duration_from_seconds(long double seconds);

/// Fractions from 0 to 1: "50%" or "0.5".
std::optional<double> parse_fraction(std::string_view text);
/// A percentage from 0 to 100 as written ("33.3%" is 33.3, not 0.333 * 100).
std::optional<double> parse_percent(std::string_view text);

/// Canonical texts that parse_duration and parse_rate read back exactly.
std::string format_duration(std::chrono::nanoseconds duration); // "250ms", "2s", "1500us"
std::string format_rate(std::uint64_t bytes_per_second);        // "1MiB/s", "1000B/s"

} // namespace s3fault::text
