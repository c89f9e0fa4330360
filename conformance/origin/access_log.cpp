#include "conformance/origin/access_log.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdio>
#include <strings.h>

namespace s3fault::origin {
namespace {

constexpr std::array<std::string_view, 4> secret_parameters = {
    "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token", "Signature"};

bool is_secret(std::string_view name) {
  for (auto secret : secret_parameters) {
    if (name.size() == secret.size() &&
        strncasecmp(name.data(), secret.data(), secret.size()) == 0) {
      return true;
    }
  }
  return false;
}

} // namespace

std::string redact_credentials(std::string_view target) {
  const auto question = target.find('?');
  if (question == std::string_view::npos) {
    return std::string(target);
  }
  std::string out(target.substr(0, question + 1));
  std::string_view query = target.substr(question + 1);
  bool first = true;
  while (true) {
    const auto amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    const auto eq = item.find('=');
    if (!first) {
      out += '&';
    }
    first = false;
    if (eq != std::string_view::npos && is_secret(item.substr(0, eq))) {
      out.append(item.substr(0, eq + 1));
      out += "REDACTED";
    } else {
      out.append(item);
    }
    if (amp == std::string_view::npos) {
      break;
    }
    query.remove_prefix(amp + 1);
  }
  return out;
}

std::string format_request(const request_record& record, log_format format) {
  const std::string target = redact_credentials(record.target);
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
