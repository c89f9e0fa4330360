#pragma once
// ASCII case and blank handling for header names, tokens and values (HTTP is case-insensitive
// and space-tolerant in ASCII only, so no locale is involved).
#include <string>
#include <string_view>

namespace s3fault::origin {

std::string ascii_lower(std::string_view text);
std::string ascii_upper(std::string_view text);
/// Without leading and trailing spaces and tabs.
std::string_view trim_blanks(std::string_view text);

} // namespace s3fault::origin
