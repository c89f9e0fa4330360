#include "proxy/exchange_log.hpp"

#include "runtime/log_redaction.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace s3fault::proxy {

std::string format_exchange(const exchange_record& r, log_format format) {
  const std::string target = runtime::redact_target(r.target);
  const char* upstream = !r.upstream_used ? "none" : (r.upstream_reused ? "reused" : "new");
  if (format == log_format::json) {
    nlohmann::json line = {{"event", "exchange"},
                           {"client", r.client},
                           {"method", r.method},
                           {"target", target},
                           {"status", r.status},
                           {"request_bytes", r.request_bytes},
                           {"response_bytes", r.response_bytes},
                           {"duration_ms", r.duration_ms},
                           {"upstream", upstream},
                           {"outcome", r.outcome}};
    if (r.ttfb_ms >= 0) {
      line["ttfb_ms"] = r.ttfb_ms;
    }
    if (!r.faults.empty()) {
      line["faults"] = r.faults;
    }
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  std::string ttfb = r.ttfb_ms >= 0 ? fmt::format("{:.2f}ms", r.ttfb_ms) : "-";
  return fmt::format("{} {} {} {} in={} out={} dur={:.2f}ms ttfb={} upstream={} {}{}{}", r.client,
                     r.method, target, r.status, r.request_bytes, r.response_bytes, r.duration_ms,
                     ttfb, upstream, r.outcome, r.faults.empty() ? "" : " faults=", r.faults);
}

} // namespace s3fault::proxy
