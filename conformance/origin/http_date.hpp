#pragma once
// The origin's dates are the shared ones (runtime/http_date.hpp), named here as its own.
#include "runtime/http_date.hpp"

namespace s3fault::origin {

using runtime::format_http_date;
using runtime::format_iso8601;
using runtime::parse_http_date;
using runtime::time_point;
using runtime::whole_seconds;

} // namespace s3fault::origin
