#include "faults/values.hpp"

#include "text/text.hpp"

#include <array>
#include <charconv>
#include <cmath>

namespace s3fault::faults {
namespace {

/// A JSON number as a finite double, or nullopt.
std::optional<double> json_number(const nlohmann::json& value) {
  if (!value.is_number()) {
    return std::nullopt;
  }
  const double number = value.get<double>();
  return std::isfinite(number) ? std::optional<double>(number) : std::nullopt;
}

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

std::optional<std::uint64_t> parse_size(const nlohmann::json& value) {
  if (value.is_string()) {
    return text::parse_size(value.get_ref<const std::string&>());
  }
  return whole_number(value);
}

std::optional<std::chrono::nanoseconds> parse_duration(const nlohmann::json& value) {
  if (value.is_string()) {
    return text::parse_duration(value.get_ref<const std::string&>());
  }
  const auto seconds = json_number(value);
  return seconds ? text::duration_from_seconds(*seconds) : std::nullopt;
}

std::optional<std::uint64_t> parse_rate(const nlohmann::json& value) {
  if (value.is_string()) {
    return text::parse_rate(value.get_ref<const std::string&>());
  }
  const auto rate = json_number(value);
  if (!rate || *rate < 1 || *rate >= 18446744073709551616.0) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(std::floor(*rate));
}

std::optional<double> parse_request_rate(const nlohmann::json& value) {
  if (value.is_string()) {
    return text::parse_request_rate(value.get_ref<const std::string&>());
  }
  const auto rate = json_number(value);
  return rate && *rate >= 0 ? rate : std::nullopt;
}

std::optional<double> parse_fraction(const nlohmann::json& value) {
  if (value.is_string()) {
    return text::parse_fraction(value.get_ref<const std::string&>());
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
    const std::string& written = value.get_ref<const std::string&>();
    if (const auto percent = text::parse_percent(written)) {
      // Kept as written, so that "33.3%" stays exactly 33.3 percent.
      size_or_fraction out;
      out.percent = *percent;
      return out;
    }
    // A whole number of bytes or a size with a unit; "0.5", a fraction of a byte, is a fraction.
    if (const auto bytes = text::parse_size(written)) {
      return size_or_fraction{bytes, 0};
    }
    const auto fraction = text::parse_fraction(written);
    return fraction ? std::optional(as_fraction(*fraction)) : std::nullopt;
  }
  if (const auto bytes = whole_number(value)) {
    return size_or_fraction{bytes, 0};
  }
  if (const auto fraction = parse_fraction(value)) {
    return as_fraction(*fraction);
  }
  return std::nullopt;
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
