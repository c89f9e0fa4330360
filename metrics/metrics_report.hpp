#pragma once
// The proxy's measurements in three forms: Prometheus text (GET /metrics), JSON with quantiles
// (GET /stats and --report FILE), and a table for people (printed when the proxy stops).
#include "metrics/traffic_metrics.hpp"

#include <nlohmann/json.hpp>

#include <string>

namespace s3fault::metrics {

/// Prometheus text exposition format 0.0.4: counters `s3fault_requests_total`,
/// `s3fault_request_body_bytes_total`, `s3fault_response_body_bytes_total`,
/// `s3fault_retries_total` (labels operation, status_class), histograms
/// `s3fault_request_duration_seconds` and `s3fault_time_to_first_byte_seconds` (label operation),
/// `s3fault_faults_injected_total` (label rule), gauge `s3fault_active_connections`, counter
/// `s3fault_upstream_connections_total` (label reuse = new | reused).
std::string prometheus_text(const traffic_metrics& metrics);

/// {"seconds": ..., "operations": [{"operation", "status_class", "requests", "bytes_in",
/// "bytes_out", "retries", "throughput_mib_s", "latency_ms": {p50,p90,p99,max,mean},
/// "ttfb_ms": {...}}], "faults_by_rule": {...}, "active_connections", "upstream": {...}}
nlohmann::json stats_json(const traffic_metrics& metrics);

/// One line per (operation, status class) with requests, p50/p90/p99/max latency and TTFB,
/// bytes, retries; then faults per rule.
std::string summary_table(const traffic_metrics& metrics);

} // namespace s3fault::metrics
