#include "cli/duration.hpp"

#include "text/quantities.hpp"

namespace s3fault::cli {

// One duration syntax for the whole tool: the command line reads durations the way rule files do.
std::optional<std::chrono::milliseconds> parse_duration(std::string_view text) {
  const auto parsed = text::parse_duration(text);
  if (!parsed) {
    return std::nullopt;
  }
  return std::chrono::duration_cast<std::chrono::milliseconds>(*parsed);
}

} // namespace s3fault::cli
