#pragma once
// The origin's dates are the shared ones (text/http_date.hpp), named here as its own.
#include "text/http_date.hpp"

namespace s3fault::origin {

using text::format_http_date;
using text::format_iso8601;
using text::parse_http_date;
using text::time_point;
using text::whole_seconds;

} // namespace s3fault::origin
