#include "text/range_header.hpp"

#include "text/text.hpp"

namespace s3fault::text {

std::optional<byte_range_spec> parse_range(std::string_view text) {
  text = trim(text);
  if (!text.starts_with("bytes=")) {
    return std::nullopt;
  }
  text = trim(text.substr(6));
  if (text.find(',') != std::string_view::npos) {
    return std::nullopt; // several ranges: S3 serves none of them
  }
  const auto dash = text.find('-');
  if (dash == std::string_view::npos) {
    return std::nullopt;
  }
  const std::string_view first_text = trim(text.substr(0, dash));
  const std::string_view last_text = trim(text.substr(dash + 1));
  byte_range_spec spec;
  if (first_text.empty()) {
    spec.last = parse_whole_number(last_text);
    if (!spec.last) {
      return std::nullopt;
    }
    return spec;
  }
  spec.first = parse_whole_number(first_text);
  if (!spec.first) {
    return std::nullopt;
  }
  if (!last_text.empty()) {
    spec.last = parse_whole_number(last_text);
    if (!spec.last || *spec.last < *spec.first) {
      return std::nullopt;
    }
  }
  return spec;
}

} // namespace s3fault::text
