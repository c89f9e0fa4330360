#include "proxy/exchange_log.hpp"

#include "faults/s3_request.hpp"
#include "runtime/log_redaction.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace s3fault::proxy {
namespace {

/// "1.25ms", or "-" for a time that was not measured (negative).
std::string milliseconds_or_dash(double milliseconds) {
  return milliseconds >= 0 ? fmt::format("{:.2f}ms", milliseconds) : "-";
}

} // namespace

void add_first_byte_times(nlohmann::json& line, const exchange_record& r) {
  if (r.ttfb_ms >= 0) {
    line["ttfb_ms"] = r.ttfb_ms;
  }
  if (r.store_ttfb_ms >= 0) {
    line["store_ttfb_ms"] = r.store_ttfb_ms;
  }
}

std::string format_exchange(const exchange_record& r, const faults::s3_request& request,
                            log_format format) {
  const std::string target = runtime::redact_target(r.target);
  const char* upstream = !r.upstream_used ? "none" : (r.upstream_reused ? "reused" : "new");
  const auto operation = faults::operation_name(request.operation);
  if (format == log_format::json) {
    nlohmann::json line = {{"event", "exchange"},
                           {"client", r.client},
                           {"method", r.method},
                           {"target", target},
                           {"operation", operation},
                           {"status", r.status},
                           {"request_bytes", r.request_bytes},
                           {"response_bytes", r.response_bytes},
                           {"duration_ms", r.duration_ms},
                           {"upstream", upstream},
                           {"outcome", outcome_text(r)}};
    add_first_byte_times(line, r);
    if (!request.bucket.empty()) {
      line["bucket"] = request.bucket;
    }
    if (!r.faults.empty()) {
      line["faults"] = r.faults;
    }
    if (!r.request_id.empty()) {
      line["request_id"] = r.request_id;
    }
    if (!request.why_other.empty()) {
      line["other"] = request.why_other;
    }
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  const std::string bucket = request.virtual_host ? " bucket=" + request.bucket : "";
  const std::string id = r.request_id.empty() ? "" : " id=" + r.request_id;
  // Why a request is no operation of S3's model, so that `op=Other` is never a mystery.
  const std::string other = request.why_other.empty() ? "" : " other=\"" + request.why_other + "\"";
  return fmt::format(
      "{} {} {} {} op={}{} in={} out={} dur={:.2f}ms ttfb={} store_ttfb={} upstream={}{} {}{}{}{}",
      r.client, r.method, target, r.status, operation, bucket, r.request_bytes, r.response_bytes,
      r.duration_ms, milliseconds_or_dash(r.ttfb_ms), milliseconds_or_dash(r.store_ttfb_ms),
      upstream, id, outcome_text(r), r.faults.empty() ? "" : " faults=", r.faults, other);
}

} // namespace s3fault::proxy
