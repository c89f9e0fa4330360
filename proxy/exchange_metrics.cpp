#include "proxy/exchange_metrics.hpp"

#include "faults/s3_request.hpp"

#include <algorithm>

namespace s3fault::proxy {

std::vector<std::string> metric_operation_names() {
  std::vector<std::string> names;
  for (const auto operation : faults::all_operations()) {
    names.emplace_back(faults::operation_name(operation));
  }
  return names;
}

faults::request_line request_line_of(const exchange_record& record) {
  return {record.method, record.target, record.host, record.operation_headers, record.range};
}

void record_metrics(metrics::traffic_metrics& metrics, const exchange_record& record,
                    const faults::s3_request& request) {
  const auto& all = faults::all_operations();
  const auto index = std::find(all.begin(), all.end(), request.operation) - all.begin();
  const std::string part =
      request.part_number ? "part " + std::to_string(*request.part_number) : record.range;
  metrics::exchange_sample sample;
  sample.operation = static_cast<int>(index);
  sample.bucket = request.bucket;
  sample.key = request.key;
  sample.part_or_range = part;
  sample.status = record.status;
  sample.failed = record.status == 0 || record.status >= 400 || !record.outcome.ok();
  sample.faults = record.faults;
  sample.error_code = record.error_code;
  sample.bytes_in = record.request_bytes;
  sample.bytes_out = record.response_bytes;
  sample.duration_us = static_cast<std::uint64_t>(std::max(0.0, record.duration_ms) * 1000.0);
  if (record.ttfb_ms >= 0) {
    sample.ttfb_us = static_cast<std::uint64_t>(record.ttfb_ms * 1000.0);
  }
  if (record.store_ttfb_ms >= 0) {
    sample.store_ttfb_us = static_cast<std::uint64_t>(record.store_ttfb_ms * 1000.0);
  }
  sample.upstream_used = record.upstream_used;
  sample.upstream_reused = record.upstream_reused;
  if (record.malformed_head) {
    sample.known_retries = 0; // all such heads look alike ("- -"): the next is no retry of this
  }
  metrics.record(sample);
}

} // namespace s3fault::proxy
