#include "text/http_date.hpp"

#include <array>
#include <cctype>
#include <charconv>
#include <ctime>
#include <string>

namespace s3fault::text {
namespace {

constexpr std::array<std::string_view, 7> day_names = {"Sun", "Mon", "Tue", "Wed",
                                                       "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 12> month_names = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                          "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

std::tm utc_parts(time_point time) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(time);
  std::tm parts{};
  gmtime_r(&seconds, &parts);
  return parts;
}

/// A small cursor over the date text: each step consumes a fixed shape or fails.
struct date_reader {
  std::string_view text;
  bool ok = true;

  void skip_spaces() {
    while (!text.empty() && text.front() == ' ') {
      text.remove_prefix(1);
    }
  }
  void literal(std::string_view expected) {
    if (!ok || !text.starts_with(expected)) {
      ok = false;
      return;
    }
    text.remove_prefix(expected.size());
  }
  int number(std::size_t min_digits, std::size_t max_digits) {
    std::size_t n = 0;
    while (n < text.size() && n < max_digits && std::isdigit(static_cast<unsigned char>(text[n]))) {
      ++n;
    }
    if (!ok || n < min_digits) {
      ok = false;
      return 0;
    }
    int value = 0;
    std::from_chars(text.data(), text.data() + n, value);
    text.remove_prefix(n);
    return value;
  }
  int month() {
    for (std::size_t i = 0; i < month_names.size(); ++i) {
      if (ok && text.starts_with(month_names[i])) {
        text.remove_prefix(3);
        return static_cast<int>(i);
      }
    }
    ok = false;
    return 0;
  }
  void time_of_day(std::tm& parts) {
    parts.tm_hour = number(2, 2);
    literal(":");
    parts.tm_min = number(2, 2);
    literal(":");
    parts.tm_sec = number(2, 2);
  }
};

std::optional<time_point> to_time_point(const std::tm& parts) {
  if (parts.tm_mon < 0 || parts.tm_mon > 11 || parts.tm_mday < 1 || parts.tm_mday > 31 ||
      parts.tm_hour > 23 || parts.tm_min > 59 || parts.tm_sec > 60) {
    return std::nullopt;
  }
  std::tm copy = parts;
  const std::time_t seconds = timegm(&copy);
  if (seconds == static_cast<std::time_t>(-1)) {
    return std::nullopt;
  }
  return std::chrono::system_clock::from_time_t(seconds);
}

} // namespace

std::string format_http_date(time_point time) {
  const std::tm parts = utc_parts(time);
  char text[64];
  std::snprintf(text, sizeof text, "%s, %02d %s %04d %02d:%02d:%02d GMT",
                std::string(day_names[parts.tm_wday]).c_str(), parts.tm_mday,
                std::string(month_names[parts.tm_mon]).c_str(), parts.tm_year + 1900, parts.tm_hour,
                parts.tm_min, parts.tm_sec);
  return text;
}

std::string format_iso8601(time_point time) {
  const std::tm parts = utc_parts(time);
  const auto millis =
      std::chrono::duration_cast<std::chrono::milliseconds>(time.time_since_epoch()).count() % 1000;
  char text[64];
  std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900,
                parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min, parts.tm_sec,
                static_cast<int>(millis < 0 ? millis + 1000 : millis));
  return text;
}

time_point whole_seconds(time_point time) {
  return std::chrono::time_point_cast<std::chrono::seconds>(time);
}

std::optional<time_point> parse_http_date(std::string_view text) {
  std::tm parts{};
  const auto comma = text.find(',');
  date_reader in{text};
  if (comma == 3) {
    // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT"
    in.text.remove_prefix(4);
    in.skip_spaces();
    parts.tm_mday = in.number(1, 2);
    in.literal(" ");
    parts.tm_mon = in.month();
    in.literal(" ");
    parts.tm_year = in.number(4, 4) - 1900;
    in.literal(" ");
    in.time_of_day(parts);
    in.literal(" GMT");
  } else if (comma != std::string_view::npos) {
    // RFC 850: "Sunday, 06-Nov-94 08:49:37 GMT"
    in.text.remove_prefix(comma + 1);
    in.skip_spaces();
    parts.tm_mday = in.number(2, 2);
    in.literal("-");
    parts.tm_mon = in.month();
    in.literal("-");
    const int year = in.number(2, 2);
    parts.tm_year = year < 70 ? year + 100 : year; // two-digit years: 1970-2069
    in.literal(" ");
    in.time_of_day(parts);
    in.literal(" GMT");
  } else {
    // asctime: "Sun Nov  6 08:49:37 1994"
    if (in.text.size() < 4) {
      return std::nullopt;
    }
    in.text.remove_prefix(4);
    parts.tm_mon = in.month();
    in.skip_spaces();
    parts.tm_mday = in.number(1, 2);
    in.literal(" ");
    in.time_of_day(parts);
    in.literal(" ");
    parts.tm_year = in.number(4, 4) - 1900;
  }
  if (!in.ok || !in.text.empty()) {
    return std::nullopt;
  }
  return to_time_point(parts);
}

std::optional<time_point> parse_rfc3339(std::string_view text) {
  std::tm parts{};
  date_reader in{text};
  parts.tm_year = in.number(4, 4) - 1900;
  in.literal("-");
  parts.tm_mon = in.number(2, 2) - 1;
  in.literal("-");
  parts.tm_mday = in.number(2, 2);
  if (!in.text.empty() && (in.text.front() == 't' || in.text.front() == ' ')) {
    in.text.remove_prefix(1);
  } else {
    in.literal("T");
  }
  in.time_of_day(parts);
  std::chrono::microseconds fraction{0};
  if (in.ok && in.text.starts_with(".")) {
    in.text.remove_prefix(1);
    const auto before = in.text.size();
    const int digits_value = in.number(1, 6);
    const auto digits = before - in.text.size();
    long scale = 1;
    for (auto d = digits; d < 6; ++d) {
      scale *= 10;
    }
    fraction = std::chrono::microseconds(static_cast<long>(digits_value) * scale);
    while (!in.text.empty() && std::isdigit(static_cast<unsigned char>(in.text.front()))) {
      in.text.remove_prefix(1); // beyond microseconds
    }
  }
  std::chrono::minutes offset{0};
  if (in.ok && (in.text == "Z" || in.text == "z")) {
    in.text.remove_prefix(1);
  } else if (in.ok && (in.text.starts_with("+") || in.text.starts_with("-"))) {
    const int sign = in.text.front() == '-' ? -1 : 1;
    in.text.remove_prefix(1);
    const int hours = in.number(2, 2);
    in.literal(":");
    const int minutes = in.number(2, 2);
    offset = std::chrono::minutes(sign * (hours * 60 + minutes));
  } else {
    in.ok = false;
  }
  if (!in.ok || !in.text.empty()) {
    return std::nullopt;
  }
  const auto seconds = to_time_point(parts);
  if (!seconds) {
    return std::nullopt;
  }
  return *seconds + fraction - offset;
}

} // namespace s3fault::text
