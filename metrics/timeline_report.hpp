#pragma once
// A timeline and its drift in the forms people and tools read: JSON (in --report, and GET
// /timeline on the admin port), CSV (--timeline-csv), and the terminal's lines. The JSON keeps
// each interval's histogram buckets, so `s3fault report` can judge a saved run again and
// compare two runs exactly.
#include "metrics/drift.hpp"
#include "metrics/timeline.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace s3fault::metrics {

/// A recorded timeline with what it was recorded with.
struct timeline_record {
  double interval_seconds = 0;
  double resolution_seconds = 0; // after merges
  std::size_t bytes_kept = 0, byte_cap = 0;
  std::string store; // what was sampled ("cgroup /docker/ID (v1: ...)"); empty: none
  std::vector<timeline_interval> intervals;
};

timeline_record record_of(const timeline& recorded, std::string store_description);

/// {"interval_s", "resolution_s", "bytes_kept", "byte_cap", "store", "intervals": [{"start",
/// "end", "operations": {NAME: {"requests", "errors", "retries", "bytes", "mib_per_s",
/// "latency_ms": {p50, p90, p99}, "ttfb_ms": {...}, "latency_buckets": [[bucket, count], ...],
/// "ttfb_buckets": [...]}}, "store": {"threads", "memory_bytes", "anon_bytes", "cpu_seconds",
/// "cpu_percent"}, "store_error"}]}. Without `with_buckets` the two buckets lists are left out
/// (what the dashboard polls; such a timeline cannot be read back).
nlohmann::json timeline_json(const timeline_record& record, bool with_buckets = true);
/// Reads timeline_json back; nullopt with `error` naming the field when it is not one.
std::optional<timeline_record> read_timeline_json(const nlohmann::json& json, std::string& error);

/// {"method", "alpha", "min_change_percent", "verdict", "run_s", "first_sixth_end_s",
/// "last_sixth_start_s", "blocks_per_side", "intervals_per_block", "not_judged",
/// "operations": [{"operation", "figures": [{"figure", "unit", "first", "last",
/// "change_percent", "interval_percent": [low, high], "p", "detectable_percent": [drop, rise],
/// "verdict", "rounds_needed", "not_judged", "first_blocks", "last_blocks"}]}], "store": {...}}
nlohmann::json drift_json(const drift_report& drift, const drift_rules& rules);

/// One row per interval and operation (an interval without traffic: one row, operation empty):
/// start_s, end_s, operation, requests, errors, retries, mib_per_s, latency p50/p90/p99 ms,
/// ttfb p50/p90/p99 ms, store_threads, store_memory_mib, store_anon_mib, store_cpu_percent.
std::string timeline_csv(const timeline_record& record);

/// What a figure's comparison says: "slower", "faster", "lower", "higher", "no change",
/// "cannot tell" or "not judged".
std::string drift_verdict(const figure_drift& figure);
/// The whole run's: "drift" when any figure got worse, else "cannot tell" when any could not
/// tell, else "no drift"; "not judged" when the run was too short.
std::string overall_drift_verdict(const drift_report& drift);

/// Two runs compared (s3fault report A --against B): "B against A: worse | no difference |
/// cannot tell | not judged", then a line per figure.
std::string runs_comparison_text(const runs_comparison& compared, const drift_rules& rules,
                                 const std::string& first_name, const std::string& second_name);
/// {"first", "second", "verdict", "blocks_per_run", "block_s": [first, second], "not_judged",
/// "operations": [...as drift_json's]}
nlohmann::json runs_comparison_json(const runs_comparison& compared, const drift_rules& rules,
                                    const std::string& first_name, const std::string& second_name);
/// "worse" when any figure got worse, else "cannot tell" when any could not tell, else
/// "no difference"; "not judged" when a run was too short.
std::string overall_runs_verdict(const runs_comparison& compared);

/// The terminal's lines: the verdict first, then a line per figure, then the store's.
std::string drift_text(const drift_report& drift, const drift_rules& rules,
                       const timeline_record& record);

} // namespace s3fault::metrics
