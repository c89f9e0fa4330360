#include "faults/config/scalar_text.hpp"

#include "text/text.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>

namespace s3fault::faults::config {
namespace {

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// [-+]?[0-9]+
bool looks_integral(std::string_view text) {
  if (!text.empty() && (text.front() == '-' || text.front() == '+')) {
    text.remove_prefix(1);
  }
  return !text.empty() && std::all_of(text.begin(), text.end(), is_digit);
}

// [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?  (YAML 1.2 core schema floats)
bool looks_decimal(std::string_view text) {
  std::size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
    ++i;
  }
  std::size_t digits = 0;
  while (i < text.size() && is_digit(text[i])) {
    ++i;
    ++digits;
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    while (i < text.size() && is_digit(text[i])) {
      ++i;
      ++digits;
    }
  }
  if (digits == 0) {
    return false;
  }
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) {
      ++i;
    }
    const std::size_t exponent_start = i;
    while (i < text.size() && is_digit(text[i])) {
      ++i;
    }
    if (i == exponent_start) {
      return false;
    }
  }
  return i == text.size();
}

} // namespace

nlohmann::json scalar_from_text(std::string_view text) {
  if (text::iequal(text, "true")) {
    return true;
  }
  if (text::iequal(text, "false")) {
    return false;
  }
  const char* const begin = text.data();
  const char* const end = text.data() + text.size();
  if (looks_integral(text)) {
    const std::string_view unsigned_part = text.front() == '+' ? text.substr(1) : text;
    if (unsigned_part.front() == '-') {
      std::int64_t value = 0;
      if (std::from_chars(begin, end, value).ec == std::errc{}) {
        return value;
      }
    } else {
      std::uint64_t value = 0;
      const char* const first = unsigned_part.data();
      if (std::from_chars(first, end, value).ec == std::errc{}) {
        return value;
      }
    }
    return std::string(text); // out of range: keep the text rather than lose digits
  }
  if (looks_decimal(text)) {
    double value = 0;
    const char* const first = text.front() == '+' ? begin + 1 : begin;
    if (std::from_chars(first, end, value).ec == std::errc{}) {
      return value;
    }
  }
  return std::string(text);
}

} // namespace s3fault::faults::config
