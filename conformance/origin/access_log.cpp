#include "conformance/origin/access_log.hpp"

#include "runtime/log_redaction.hpp"

#include <nlohmann/json.hpp>

#include <cstdio>

namespace s3fault::origin {

std::string format_request(const request_record& record, log_format format) {
  const std::string target = runtime::redact_target(record.target);
  if (format == log_format::json) {
    nlohmann::json line = {{"client", record.client},
                           {"method", record.method},
                           {"target", target},
                           {"operation", record.operation},
                           {"status", record.status},
                           {"request_bytes", record.request_bytes},
                           {"response_bytes", record.response_bytes},
                           {"duration_ms", record.duration_ms},
                           {"request_id", record.request_id},
                           {"outcome", record.outcome}};
    if (!record.error_code.empty()) {
      line["error"] = record.error_code;
    }
    return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  char duration[32];
  std::snprintf(duration, sizeof duration, "%.1f", record.duration_ms);
  std::string line = record.client + " " + record.method + " " + target + " " +
                     std::to_string(record.status) + " " + record.operation;
  if (!record.error_code.empty()) {
    line += " " + record.error_code;
  }
  line += " in=" + std::to_string(record.request_bytes) +
          " out=" + std::to_string(record.response_bytes) + " " + duration +
          "ms id=" + record.request_id;
  if (record.outcome != "ok") {
    line += " (" + record.outcome + ")";
  }
  return line;
}

} // namespace s3fault::origin
