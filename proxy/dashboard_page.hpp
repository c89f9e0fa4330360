#pragma once
// The live dashboard the admin server serves at GET /: one self-contained HTML page (its CSS
// and JS inline, no fetch but the admin API's own /stats and /rules), compiled in from
// proxy/dashboard/dashboard.html.
#include <string_view>

namespace s3fault::proxy {

std::string_view dashboard_page();

} // namespace s3fault::proxy
