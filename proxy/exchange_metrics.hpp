#pragma once
// Turns a finished exchange into a measurement: classified as an S3 operation (the same
// classifier the fault rules use), then counted in the traffic metrics.
#include "metrics/traffic_metrics.hpp"
#include "proxy/exchange_log.hpp"

#include <string>
#include <vector>

namespace s3fault::proxy {

/// The operation names the metrics are indexed by (faults::all_operations() order).
std::vector<std::string> metric_operation_names();

void record_metrics(metrics::traffic_metrics& metrics, const exchange_record& record,
                    const std::vector<std::string>& s3_domains);

} // namespace s3fault::proxy
