#pragma once
// The two date formats of S3 and HTTP: HTTP dates (Last-Modified, If-Modified-Since; RFC 7231) and
// ISO 8601 with milliseconds (XML listings).
#include <chrono>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::text {

using time_point = std::chrono::system_clock::time_point;

/// "Wed, 21 Oct 2015 07:28:00 GMT"
std::string format_http_date(time_point time);
/// Accepts the three forms RFC 7231 requires: IMF-fixdate, RFC 850 and asctime. nullopt when
/// the text is none of them (callers then ignore the header, as RFC 7232 says).
std::optional<time_point> parse_http_date(std::string_view text);
/// "2015-10-21T07:28:00.123Z"
std::string format_iso8601(time_point time);
/// RFC 3339: "2015-10-21T07:28:00Z", with an optional fraction ("07:28:00.123Z") and a
/// numeric offset instead of Z ("09:28:00+02:00"); nullopt for anything else.
std::optional<time_point> parse_rfc3339(std::string_view text);

/// Truncates to whole seconds: HTTP dates carry no more, so comparisons use this.
time_point whole_seconds(time_point time);

} // namespace s3fault::text
