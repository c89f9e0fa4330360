#pragma once
// Turns a finished exchange into a measurement: classified as an S3 operation (the same
// classifier the fault rules use), then counted in the traffic metrics.
#include "faults/s3_request.hpp"
#include "metrics/traffic_metrics.hpp"
#include "proxy/exchange_log.hpp"

#include <string>
#include <vector>

namespace s3fault::proxy {

/// The operation names the metrics are indexed by (faults::all_operations() order).
std::vector<std::string> metric_operation_names();

/// What the classifier reads of an exchange: views into `record`, valid while it lives.
faults::request_line request_line_of(const exchange_record& record);

/// `request`: the exchange's request, classified.
void record_metrics(metrics::traffic_metrics& metrics, const exchange_record& record,
                    const faults::s3_request& request);

} // namespace s3fault::proxy
