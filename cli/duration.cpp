#include "cli/duration.hpp"

#include <charconv>

namespace s3fault::cli {

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end == text.data() || value < 0) {
    return std::nullopt;
  }
  const std::string_view unit(end, text.data() + text.size() - end);
  double scale = 0;
  if (unit.empty() || unit == "s") {
    scale = 1000;
  } else if (unit == "ms") {
    scale = 1;
  } else if (unit == "m") {
    scale = 60'000;
  } else if (unit == "h") {
    scale = 3'600'000;
  } else {
    return std::nullopt;
  }
  return std::chrono::milliseconds(static_cast<long long>(value * scale));
}

} // namespace s3fault::cli
