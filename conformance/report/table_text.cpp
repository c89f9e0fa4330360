#include "conformance/report/table_text.hpp"

#include <cstdio>

namespace s3fault::report {

std::string painter::operator()(std::string_view text, const char* code) const {
  if (!colour_) {
    return std::string(text);
  }
  return "\x1b[" + std::string(code) + "m" + std::string(text) + "\x1b[0m";
}

std::string padded(std::string_view text, std::size_t width, std::size_t gap) {
  std::string line(text);
  line.append(line.size() + gap <= width ? width - line.size() : gap, ' ');
  return line;
}

std::string duration_text(double seconds) {
  char text[32];
  if (seconds < 1) {
    std::snprintf(text, sizeof text, "%.0f ms", seconds * 1000);
  } else {
    std::snprintf(text, sizeof text, "%.1f s", seconds);
  }
  return text;
}

std::string passed_and_failed(const painter& paint, std::size_t passed, std::size_t failed) {
  return paint(std::to_string(passed) + " passed", colour::green) + ", " +
         paint(std::to_string(failed) + " failed", failed ? colour::red : colour::green);
}

} // namespace s3fault::report
