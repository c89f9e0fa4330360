#pragma once
// The proxy's measurements in three forms: Prometheus text (GET /metrics), JSON with quantiles
// (GET /stats and --report FILE), and a table for people (printed when the proxy stops).
#include "metrics/traffic_history.hpp"
#include "metrics/traffic_metrics.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace s3fault::metrics {

/// Prometheus text exposition format 0.0.4: counters `s3fault_requests_total`,
/// `s3fault_request_body_bytes_total`, `s3fault_response_body_bytes_total`,
/// `s3fault_retries_total` (labels operation, status_class), histograms
/// `s3fault_request_duration_seconds`, `s3fault_time_to_first_byte_seconds` and
/// `s3fault_store_time_to_first_byte_seconds` (label operation), `s3fault_faults_injected_total`
/// (label rule), gauge `s3fault_active_connections`, counter `s3fault_upstream_connections_total`
/// (label reuse = new | reused). Sums are exact decimals of the microseconds recorded; label
/// values escape backslash, double quote and newline.
std::string prometheus_text(const traffic_metrics& metrics);

/// The load that one load-shaped fault rule sees (schedule in_flight_over or rate), read from the
/// rule's counters by the proxy: metrics/ knows nothing of rules.
struct rule_load {
  std::string rule;
  std::uint64_t in_flight = 0;      // in-flight slots held now
  std::uint64_t peak_in_flight = 0; // the most held at once
  std::uint64_t refusals = 0;       // injections because the load was over the rule's limit
};

/// Prometheus text for load-shaped rules: gauges `s3fault_rule_in_flight` and
/// `s3fault_rule_in_flight_peak`, counter `s3fault_rule_refusals_total` (label rule). The
/// families' HELP and TYPE lines come even without such rules.
std::string prometheus_rule_load(const std::vector<rule_load>& rules);

/// {"seconds", "rate_window_s", "percentile_window_s", "requests_per_s", "throughput_mib_s",
/// "operations": [{"operation", "status_class", "requests", "bytes_in", "bytes_out", "retries",
/// "requests_per_s", "throughput_mib_s", "latency_ms": {p50,p90,p99,max,mean}, "ttfb_ms": {...},
/// "store_ttfb_ms": {...}, "recent_latency_ms": {count,p50,p90,p99}, "recent_ttfb_ms": {...},
/// "recent_store_ttfb_ms": {...}}], "faults_by_rule", "errors_by_code", "active_connections",
/// "upstream": {...}}.
/// Counts, bytes and latency_ms/ttfb_ms/store_ttfb_ms are since the start; the rates are over the
/// last `window_seconds` of `history` (rate_window_s says over how long) and the recent_ quantiles
/// over the last `percentile_window_seconds` (percentile_window_s), or both since the start
/// without a history (--report at exit).
nlohmann::json stats_json(const traffic_metrics& metrics, const traffic_history* history = nullptr,
                          double window_seconds = 10, double percentile_window_seconds = 60);

/// GET /history: {"interval_s", "kept_s", "seconds": [when each interval ended, seconds since
/// the start], "operations": {NAME: {"requests_per_s": [...], "errors_per_s": [...],
/// "mib_per_s": [...]}}}, one value per interval in every list (0 where the operation did not
/// move).
nlohmann::json history_json(const traffic_history& history);

/// One line per (operation, status class) with requests, p50/p90/p99/max latency and TTFB,
/// bytes, retries; then faults per rule.
std::string summary_table(const traffic_metrics& metrics);

} // namespace s3fault::metrics
