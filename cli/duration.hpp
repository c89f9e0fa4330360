#pragma once
// Durations on the command line: "250ms", "10s", "2m", "1h"; a bare number means seconds.
#include <chrono>
#include <optional>
#include <string_view>

namespace s3fault::cli {

std::optional<std::chrono::milliseconds> parse_duration(std::string_view text);

} // namespace s3fault::cli
