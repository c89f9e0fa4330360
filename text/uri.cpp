#include "text/uri.hpp"

#include <algorithm>

namespace s3fault::text {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  return -1;
}

} // namespace

bool is_unreserved(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

bool is_escape_at(std::string_view text, std::size_t i) {
  return i + 2 < text.size() && text[i] == '%' && hex_value(text[i + 1]) >= 0 &&
         hex_value(text[i + 2]) >= 0;
}

std::string uri_encode(std::string_view text, bool encode_slash) {
  static constexpr char digits[] = "0123456789ABCDEF";
  std::string encoded;
  encoded.reserve(text.size());
  for (const char c : text) {
    if (is_unreserved(c) || (c == '/' && !encode_slash)) {
      encoded.push_back(c);
    } else {
      const auto byte = static_cast<unsigned char>(c);
      encoded.push_back('%');
      encoded.push_back(digits[byte >> 4]);
      encoded.push_back(digits[byte & 0x0F]);
    }
  }
  return encoded;
}

std::string uri_decode(std::string_view text) {
  std::string decoded;
  decoded.reserve(text.size());
  // The runs between escapes are copied whole: most keys have none, and the proxy decodes every
  // request's bucket, key and query.
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t percent = std::min(text.find('%', i), text.size());
    decoded.append(text.substr(i, percent - i));
    if (percent == text.size()) {
      break;
    }
    if (is_escape_at(text, percent)) {
      decoded.push_back(
          static_cast<char>(hex_value(text[percent + 1]) * 16 + hex_value(text[percent + 2])));
      i = percent + 3;
    } else {
      decoded.push_back('%');
      i = percent + 1;
    }
  }
  return decoded;
}

std::vector<std::pair<std::string, std::string>> parse_query(std::string_view query) {
  std::vector<std::pair<std::string, std::string>> params;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    if (!pair.empty()) {
      const auto eq = pair.find('=');
      params.emplace_back(uri_decode(pair.substr(0, eq)),
                          eq == std::string_view::npos ? "" : uri_decode(pair.substr(eq + 1)));
    }
    if (amp == std::string_view::npos) {
      break;
    }
    query = query.substr(amp + 1);
  }
  return params;
}

} // namespace s3fault::text
