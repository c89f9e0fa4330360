#include "proxy/journal_line.hpp"

#include "faults/s3_request.hpp"
#include "runtime/log_redaction.hpp"
#include "text/http_date.hpp"

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

/// [[name, value], ...]
nlohmann::json field_pairs(const std::vector<std::pair<std::string, std::string>>& fields) {
  nlohmann::json pairs = nlohmann::json::array();
  for (const auto& [name, value] : fields) {
    pairs.push_back({name, value});
  }
  return pairs;
}

} // namespace

nlohmann::json journal_json(const exchange_record& r, const faults::s3_request& request) {
  nlohmann::json line = {{"time", text::format_iso8601(r.started_at)},
                         {"client", r.client},
                         {"method", r.method},
                         {"target", runtime::redact_target(r.target)},
                         {"operation", faults::operation_name(request.operation)},
                         {"status", r.status},
                         {"request_bytes", r.request_bytes},
                         {"response_bytes", r.response_bytes},
                         {"duration_ms", r.duration_ms},
                         {"outcome", outcome_text(r)}};
  add_optional_fields(line, r, request);
  line["request_headers"] = field_pairs(r.request_headers);
  line["response_headers"] = field_pairs(r.response_headers);
  return line;
}

std::string journal_line(const exchange_record& r, const faults::s3_request& request) {
  return journal_json(r, request).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

} // namespace s3fault::proxy
