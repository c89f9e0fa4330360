#include "text/quantities.hpp"

#include "text/text.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <limits>

namespace s3fault::text {
namespace {

/// A decimal number as written ("12", "1.5"), split from the unit that follows it.
struct number_and_unit {
  long double number = 0;
  bool whole = true;       // no fractional digits
  std::string_view digits; // the number as written
  std::string_view unit;
};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// [0-9]+(\.[0-9]+)? then optional blanks and a unit. No signs, exponents, "inf" or "nan".
std::optional<number_and_unit> split_number(std::string_view text) {
  text = trim(text);
  std::size_t i = 0;
  while (i < text.size() && is_digit(text[i])) {
    ++i;
  }
  if (i == 0) {
    return std::nullopt;
  }
  number_and_unit out;
  if (i < text.size() && text[i] == '.') {
    const std::size_t fraction_start = ++i;
    while (i < text.size() && is_digit(text[i])) {
      ++i;
    }
    if (i == fraction_start) {
      return std::nullopt;
    }
    out.whole = false;
  }
  double value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + i, value);
  if (ec != std::errc{} || end != text.data() + i || !std::isfinite(value)) {
    return std::nullopt;
  }
  out.number = value;
  out.digits = text.substr(0, i);
  out.unit = trim(text.substr(i));
  return out;
}

struct unit_scale {
  std::string_view unit;
  std::uint64_t scale;
};

constexpr std::array<unit_scale, 10> size_units = {{
    {"B", 1},
    {"KB", 1000ULL},
    {"MB", 1000ULL * 1000},
    {"GB", 1000ULL * 1000 * 1000},
    {"TB", 1000ULL * 1000 * 1000 * 1000},
    {"KiB", 1ULL << 10},
    {"MiB", 1ULL << 20},
    {"GiB", 1ULL << 30},
    {"TiB", 1ULL << 40},
    {"", 1},
}};

std::optional<std::uint64_t> size_scale(std::string_view unit) {
  for (const auto& entry : size_units) {
    if (iequal(entry.unit, unit)) {
      return entry.scale;
    }
  }
  return std::nullopt;
}

constexpr long double two_to_the_64 = 18446744073709551616.0L;

std::optional<std::uint64_t> bytes_from(const number_and_unit& number) {
  const auto scale = size_scale(number.unit);
  if (!scale || (*scale == 1 && !number.whole)) {
    return std::nullopt; // unknown unit, or a fraction of a byte
  }
  if (number.whole) {
    // A whole count of units is exact (the one whole-number rule), not rounded through a double.
    const auto count = parse_whole_number(number.digits);
    if (!count || *count > std::numeric_limits<std::uint64_t>::max() / *scale) {
      return std::nullopt;
    }
    return *count * *scale;
  }
  const long double bytes = std::floor(number.number * static_cast<long double>(*scale));
  if (bytes >= two_to_the_64) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(bytes);
}

struct duration_unit {
  std::string_view unit;
  long double seconds;
};

constexpr std::array<duration_unit, 8> duration_units = {{
    {"ns", 1e-9L},
    {"us", 1e-6L},
    {"µs", 1e-6L},
    {"ms", 1e-3L},
    {"s", 1},
    {"m", 60},
    {"h", 3600},
    {"", 1},
}};

} // namespace

std::optional<std::uint64_t> parse_size(std::string_view text) {
  const auto number = split_number(text);
  return number ? bytes_from(*number) : std::nullopt;
}

std::optional<std::uint64_t> parse_rate(std::string_view text) {
  auto number = split_number(text);
  if (!number) {
    return std::nullopt;
  }
  // "1MiB/s", "100000B/s", "100000/s"; a unit without "/s" is a size, not a rate.
  std::string_view unit = number->unit;
  if (unit.size() >= 2 && unit.substr(unit.size() - 2) == "/s") {
    unit.remove_suffix(2);
  } else if (!unit.empty()) {
    return std::nullopt;
  }
  const auto scale = size_scale(trim(unit));
  if (!scale) {
    return std::nullopt;
  }
  const long double rate = std::floor(number->number * static_cast<long double>(*scale));
  if (rate < 1 || rate >= two_to_the_64) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(rate);
}

std::optional<std::chrono::nanoseconds> parse_duration(std::string_view text) {
  const auto number = split_number(text);
  if (!number) {
    return std::nullopt;
  }
  for (const auto& entry : duration_units) {
    if (number->unit == entry.unit) {
      return duration_from_seconds(number->number * entry.seconds);
    }
  }
  return std::nullopt;
}

std::optional<std::chrono::nanoseconds> duration_from_seconds(long double seconds) {
  constexpr long double max_duration_seconds = 365.0L * 24 * 3600;
  if (!(seconds >= 0) || seconds > max_duration_seconds) {
    return std::nullopt;
  }
  return std::chrono::nanoseconds(static_cast<std::int64_t>(std::llround(seconds * 1e9L)));
}

std::optional<double> parse_fraction(std::string_view text) {
  const auto number = split_number(text);
  if (!number) {
    return std::nullopt;
  }
  long double fraction = number->number;
  if (number->unit == "%") {
    fraction /= 100;
  } else if (!number->unit.empty()) {
    return std::nullopt;
  }
  if (fraction < 0 || fraction > 1) {
    return std::nullopt;
  }
  return static_cast<double>(fraction);
}

std::optional<double> parse_request_rate(std::string_view text) {
  const auto number = split_number(text);
  if (!number || (number->unit != "/s" && !number->unit.empty())) {
    return std::nullopt;
  }
  return static_cast<double>(number->number);
}

std::optional<double> parse_percent(std::string_view text) {
  const auto number = split_number(text);
  if (!number || number->unit != "%" || number->number > 100) {
    return std::nullopt;
  }
  return static_cast<double>(number->number);
}

std::string format_duration(std::chrono::nanoseconds duration) {
  const auto count = duration.count();
  if (count % 1'000'000'000 == 0) {
    return std::to_string(count / 1'000'000'000) + "s";
  }
  if (count % 1'000'000 == 0) {
    return std::to_string(count / 1'000'000) + "ms";
  }
  if (count % 1'000 == 0) {
    return std::to_string(count / 1'000) + "us";
  }
  return std::to_string(count) + "ns";
}

std::string format_rate(std::uint64_t bytes_per_second) {
  constexpr std::array<unit_scale, 4> binary = {{
      {"TiB", 1ULL << 40},
      {"GiB", 1ULL << 30},
      {"MiB", 1ULL << 20},
      {"KiB", 1ULL << 10},
  }};
  for (const auto& entry : binary) {
    if (bytes_per_second % entry.scale == 0) {
      return std::to_string(bytes_per_second / entry.scale) + std::string(entry.unit) + "/s";
    }
  }
  return std::to_string(bytes_per_second) + "B/s";
}

} // namespace s3fault::text
