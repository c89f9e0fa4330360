#include "conformance/s3/request_time.hpp"

#include "conformance/s3/sigv4.hpp"

#include <array>
#include <string>

namespace s3fault::s3 {
namespace {

using std::chrono::system_clock;

/// Reads exactly `count` decimal digits at `text[at]`.
std::optional<int> read_digits(std::string_view text, std::size_t at, std::size_t count) {
  if (at + count > text.size()) {
    return std::nullopt;
  }
  int value = 0;
  for (std::size_t i = at; i < at + count; ++i) {
    if (text[i] < '0' || text[i] > '9') {
      return std::nullopt;
    }
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

std::optional<system_clock::time_point> make_time(int year, int month, int day, int hour,
                                                  int minute, int second) {
  const std::chrono::year_month_day date{std::chrono::year{year},
                                         std::chrono::month{static_cast<unsigned>(month)},
                                         std::chrono::day{static_cast<unsigned>(day)}};
  // system_clock counts nanoseconds in 64 bits: years past 2262 overflow it, so dates outside
  // 1900..2200 are refused as malformed (a client's x-amz-date is untrusted input).
  if (!date.ok() || year < 1900 || year > 2200 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;
  }
  return std::chrono::sys_days{date} + std::chrono::hours{hour} + std::chrono::minutes{minute} +
         std::chrono::seconds{second};
}

std::optional<int> month_number(std::string_view name) {
  static constexpr std::array<std::string_view, 12> names = {
      "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) {
      return static_cast<int>(i) + 1;
    }
  }
  return std::nullopt;
}

/// Seconds to subtract from a local time to get UTC; nullopt for an unknown zone.
std::optional<int> zone_offset_seconds(std::string_view zone) {
  if (zone == "GMT" || zone == "UTC" || zone == "Z") {
    return 0;
  }
  if (zone.size() == 5 && (zone[0] == '+' || zone[0] == '-')) {
    const auto hours = read_digits(zone, 1, 2);
    const auto minutes = read_digits(zone, 3, 2);
    if (!hours || !minutes || *minutes > 59) {
      return std::nullopt;
    }
    const int offset = *hours * 3600 + *minutes * 60;
    return zone[0] == '+' ? offset : -offset;
  }
  return std::nullopt;
}

/// Writes `value` as exactly `width` decimal digits (zero-padded; callers keep it in range).
void append_digits(std::string& text, int value, int width) {
  std::string digits(static_cast<std::size_t>(width), '0');
  for (int i = width - 1; i >= 0 && value > 0; --i) {
    digits[static_cast<std::size_t>(i)] = static_cast<char>('0' + value % 10);
    value /= 10;
  }
  text += digits;
}

} // namespace

std::optional<system_clock::time_point> parse_amz_date(std::string_view text) {
  if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z') {
    return std::nullopt;
  }
  const auto year = read_digits(text, 0, 4);
  const auto month = read_digits(text, 4, 2);
  const auto day = read_digits(text, 6, 2);
  const auto hour = read_digits(text, 9, 2);
  const auto minute = read_digits(text, 11, 2);
  const auto second = read_digits(text, 13, 2);
  if (!year || !month || !day || !hour || !minute || !second) {
    return std::nullopt;
  }
  return make_time(*year, *month, *day, *hour, *minute, *second);
}

std::optional<system_clock::time_point> parse_http_date(std::string_view text) {
  // "Sun, 06 Nov 1994 08:49:37 GMT": fixed positions up to the zone.
  if (text.size() < 29 || text[3] != ',' || text[4] != ' ' || text[7] != ' ' || text[11] != ' ' ||
      text[16] != ' ' || text[19] != ':' || text[22] != ':' || text[25] != ' ') {
    return std::nullopt;
  }
  const auto day = read_digits(text, 5, 2);
  const auto month = month_number(text.substr(8, 3));
  const auto year = read_digits(text, 12, 4);
  const auto hour = read_digits(text, 17, 2);
  const auto minute = read_digits(text, 20, 2);
  const auto second = read_digits(text, 23, 2);
  const auto offset = zone_offset_seconds(text.substr(26));
  if (!day || !month || !year || !hour || !minute || !second || !offset) {
    return std::nullopt;
  }
  const auto local = make_time(*year, *month, *day, *hour, *minute, *second);
  if (!local) {
    return std::nullopt;
  }
  return *local - std::chrono::seconds{*offset};
}

std::string amz_date(system_clock::time_point time) {
  const auto seconds = std::chrono::floor<std::chrono::seconds>(time);
  const auto days = std::chrono::floor<std::chrono::days>(seconds);
  const std::chrono::year_month_day date{days};
  const std::chrono::hh_mm_ss clock{seconds - days};
  std::string text;
  text.reserve(16);
  append_digits(text, static_cast<int>(date.year()), 4);
  append_digits(text, static_cast<int>(static_cast<unsigned>(date.month())), 2);
  append_digits(text, static_cast<int>(static_cast<unsigned>(date.day())), 2);
  text.push_back('T');
  append_digits(text, static_cast<int>(clock.hours().count()), 2);
  append_digits(text, static_cast<int>(clock.minutes().count()), 2);
  append_digits(text, static_cast<int>(clock.seconds().count()), 2);
  text.push_back('Z');
  return text;
}

} // namespace s3fault::s3
