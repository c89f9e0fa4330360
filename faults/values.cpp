#include "faults/values.hpp"

#include "text/text.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace s3fault::faults {
namespace {

/// A decimal number as written ("12", "1.5"), split from the unit that follows it.
struct number_and_unit {
  long double number = 0;
  bool whole = true; // no fractional digits
  std::string_view unit;
};

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
// [0-9]+(\.[0-9]+)? then optional blanks and a unit. No signs, exponents, "inf" or "nan".
std::optional<number_and_unit> split_number(std::string_view text) {
  text = text::trim(text);
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
  out.unit = text::trim(text.substr(i));
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
    if (text::iequal(entry.unit, unit)) {
      return entry.scale;
    }
  }
  return std::nullopt;
}

std::optional<std::uint64_t> bytes_from(const number_and_unit& number) {
  const auto scale = size_scale(number.unit);
  if (!scale || (*scale == 1 && !number.whole)) {
    return std::nullopt; // unknown unit, or a fraction of a byte
  }
  const long double bytes = std::floor(number.number * static_cast<long double>(*scale));
  if (bytes >= 18446744073709551616.0L) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(bytes);
}

/// A JSON number as a finite double, or nullopt.
std::optional<double> json_number(const nlohmann::json& value) {
  if (!value.is_number()) {
    return std::nullopt;
  }
  const double number = value.get<double>();
  return std::isfinite(number) ? std::optional<double>(number) : std::nullopt;
}

constexpr long double max_duration_seconds = 365.0L * 24 * 3600;

std::optional<std::chrono::nanoseconds> seconds_to_duration(long double seconds) {
  if (!(seconds >= 0) || seconds > max_duration_seconds) {
    return std::nullopt;
  }
  return std::chrono::nanoseconds(static_cast<std::int64_t>(std::llround(seconds * 1e9L)));
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

/// The shortest decimal text of `value` that reads back as the same double.
std::string shortest_text(double value) {
  std::array<char, 64> buffer{};
  const auto [end, ec] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
  (void)ec;
  return std::string(buffer.data(), end);
}

} // namespace

std::optional<std::uint64_t> whole_number(const nlohmann::json& value) {
  if (value.is_string()) {
    return text::parse_whole_number(value.get_ref<const std::string&>());
  }
  if (value.is_number_unsigned()) {
    return value.get<std::uint64_t>();
  }
  if (value.is_number_integer()) {
    const auto number = value.get<std::int64_t>();
    return number >= 0 ? std::optional<std::uint64_t>(static_cast<std::uint64_t>(number))
                       : std::nullopt;
  }
  if (value.is_number_float()) {
    // 2^64 itself is a double; everything below it that is whole fits.
    const double number = value.get<double>();
    if (std::isfinite(number) && number >= 0 && number < 18446744073709551616.0 &&
        std::floor(number) == number) {
      return static_cast<std::uint64_t>(number);
    }
  }
  return std::nullopt;
}

std::optional<std::uint64_t> parse_size_text(std::string_view text) {
  const auto number = split_number(text);
  return number ? bytes_from(*number) : std::nullopt;
}

std::optional<std::uint64_t> parse_size(const nlohmann::json& value) {
  if (value.is_string()) {
    return parse_size_text(value.get_ref<const std::string&>());
  }
  return whole_number(value);
}

std::optional<std::chrono::nanoseconds> parse_duration_text(std::string_view text) {
  const auto number = split_number(text);
  if (!number) {
    return std::nullopt;
  }
  for (const auto& entry : duration_units) {
    if (number->unit == entry.unit) {
      return seconds_to_duration(number->number * entry.seconds);
    }
  }
  return std::nullopt;
}

std::optional<std::chrono::nanoseconds> parse_duration(const nlohmann::json& value) {
  if (value.is_string()) {
    return parse_duration_text(value.get_ref<const std::string&>());
  }
  const auto seconds = json_number(value);
  return seconds ? seconds_to_duration(*seconds) : std::nullopt;
}

std::optional<std::uint64_t> parse_rate_text(std::string_view text) {
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
  const auto scale = size_scale(text::trim(unit));
  if (!scale) {
    return std::nullopt;
  }
  const long double rate = std::floor(number->number * static_cast<long double>(*scale));
  if (rate < 1 || rate >= 18446744073709551616.0L) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(rate);
}

std::optional<std::uint64_t> parse_rate(const nlohmann::json& value) {
  if (value.is_string()) {
    return parse_rate_text(value.get_ref<const std::string&>());
  }
  const auto rate = json_number(value);
  if (!rate || *rate < 1 || *rate >= 18446744073709551616.0) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(std::floor(*rate));
}

std::optional<double> parse_fraction_text(std::string_view text) {
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

std::optional<double> parse_fraction(const nlohmann::json& value) {
  if (value.is_string()) {
    return parse_fraction_text(value.get_ref<const std::string&>());
  }
  const auto fraction = json_number(value);
  if (!fraction || *fraction < 0 || *fraction > 1) {
    return std::nullopt;
  }
  return fraction;
}

std::optional<std::uint64_t> size_or_fraction::resolve(std::optional<std::uint64_t> length) const {
  if (bytes) {
    return bytes;
  }
  if (!length) {
    return std::nullopt;
  }
  const long double offset =
      std::floor(static_cast<long double>(*length) * static_cast<long double>(percent) / 100);
  return std::min<std::uint64_t>(*length, static_cast<std::uint64_t>(offset));
}

nlohmann::json size_or_fraction::to_json() const {
  if (bytes) {
    return *bytes;
  }
  return shortest_text(percent) + "%";
}

std::optional<size_or_fraction> parse_size_or_fraction(const nlohmann::json& value) {
  const auto as_fraction = [](double fraction) {
    size_or_fraction out;
    out.percent = fraction * 100;
    return out;
  };
  if (value.is_string()) {
    const std::string_view text = text::trim(value.get_ref<const std::string&>());
    const auto number = split_number(text);
    if (number && (number->unit == "%" || (number->unit.empty() && !number->whole))) {
      if (number->unit == "%") {
        // Kept as written, so that "33.3%" stays exactly 33.3 percent.
        if (number->number > 100) {
          return std::nullopt;
        }
        size_or_fraction out;
        out.percent = static_cast<double>(number->number);
        return out;
      }
      const auto fraction = parse_fraction_text(text);
      return fraction ? std::optional(as_fraction(*fraction)) : std::nullopt;
    }
    if (const auto bytes = parse_size_text(text)) {
      return size_or_fraction{bytes, 0};
    }
    return std::nullopt;
  }
  if (const auto bytes = whole_number(value)) {
    return size_or_fraction{bytes, 0};
  }
  if (const auto fraction = parse_fraction(value)) {
    return as_fraction(*fraction);
  }
  return std::nullopt;
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

std::string describe_got(const nlohmann::json& value) {
  return shortened(value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::string shortened(std::string_view text) {
  constexpr std::size_t limit = 60;
  if (text.size() > limit) {
    return std::string(text.substr(0, limit - 3)) + "...";
  }
  return std::string(text);
}

std::string must_be(std::string_view field, std::string_view what, const nlohmann::json& got) {
  std::string out(field);
  out += ": must be ";
  out += what;
  out += " (got ";
  out += describe_got(got);
  out += ")";
  return out;
}

} // namespace s3fault::faults
