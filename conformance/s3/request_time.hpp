#pragma once
// The two ways an S3 request states its time: `x-amz-date` / `X-Amz-Date` in ISO 8601 basic
// form (20130524T000000Z) and the HTTP `Date` header (Fri, 24 May 2013 00:00:00 GMT).
// Formatting lives in sigv4.hpp (`amz_date`); these are the strict parsers.
#include <chrono>
#include <optional>
#include <string_view>

namespace s3fault::s3 {

/// YYYYMMDDTHHMMSSZ, nothing else; nullopt when malformed or not a real calendar time.
std::optional<std::chrono::system_clock::time_point> parse_amz_date(std::string_view text);

/// IMF-fixdate (RFC 9110), "Sun, 06 Nov 1994 08:49:37 GMT", also with the zone written as
/// "UTC", "Z" or a numeric offset ("+0000", "-0000", "+0130") because clients such as Python's
/// email.utils.formatdate send those. nullopt when malformed.
std::optional<std::chrono::system_clock::time_point> parse_http_date(std::string_view text);

} // namespace s3fault::s3
