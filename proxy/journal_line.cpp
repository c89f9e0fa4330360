#include "proxy/journal_line.hpp"

#include "faults/s3_request.hpp"
#include "runtime/http_date.hpp"
#include "runtime/log_redaction.hpp"

#include <nlohmann/json.hpp>

namespace s3fault::proxy {

namespace {

/// The fields that only some exchanges have.
void add_optional_fields(nlohmann::json& line, const exchange_record& r,
                         const faults::s3_request& request) {
  if (!request.bucket.empty()) {
    line["bucket"] = request.bucket;
  }
  if (!request.key.empty()) {
    line["key"] = request.key;
  }
  if (request.part_number) {
    line["part"] = *request.part_number;
  }
  if (!r.range.empty()) {
    line["range"] = r.range;
  }
  if (!r.error_code.empty()) {
    line["error_code"] = r.error_code;
  }
  add_first_byte_times(line, r);
  if (!r.faults.empty()) {
    line["faults"] = r.faults;
  }
  if (!r.request_id.empty()) {
    line["request_id"] = r.request_id;
  }
}

} // namespace

std::string journal_line(const exchange_record& r, const faults::s3_request& request) {
  nlohmann::json line = {{"time", runtime::format_iso8601(r.started_at)},
                         {"client", r.client},
                         {"method", r.method},
                         {"target", runtime::redact_target(r.target)},
                         {"operation", faults::operation_name(request.operation)},
                         {"status", r.status},
                         {"request_bytes", r.request_bytes},
                         {"response_bytes", r.response_bytes},
                         {"duration_ms", r.duration_ms},
                         {"outcome", r.outcome}};
  add_optional_fields(line, r, request);
  nlohmann::json headers = nlohmann::json::array();
  for (const auto& [name, value] : r.request_headers) {
    headers.push_back({name, value});
  }
  line["request_headers"] = std::move(headers);
  return line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace s3fault::proxy
