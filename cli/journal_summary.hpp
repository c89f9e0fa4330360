#pragma once
// `s3fault journal summary`: the journal's exchanges counted per S3 operation and status class,
// with exact latency percentiles, as a text table or as JSON.
#include "cli/journal_lines.hpp"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::cli {

/// One row of the summary: the exchanges of one operation and status class, or of all ("all").
struct journal_summary_row {
  std::string operation;    // "GetObject", ...; "all" for the total row
  std::string status_class; // "2xx", "4xx", "5xx", ...; "none" for status 0; "all" for the total
  std::uint64_t requests = 0;
  std::uint64_t errors = 0;    // status 0 or >= 400, or an outcome other than "ok"
  std::uint64_t faults = 0;    // exchanges with at least one fault applied
  std::uint64_t bytes_in = 0;  // request body bytes
  std::uint64_t bytes_out = 0; // response body bytes
  std::optional<double> duration_p50_ms, duration_p90_ms, duration_p99_ms;
  std::optional<double> ttfb_p50_ms, ttfb_p99_ms; // nullopt: no exchange had a ttfb_ms
};

/// The nearest-rank percentile of `values` (need not be sorted): the smallest value with at
/// least `percent`% of the values at or below it, so always one of the values. nullopt when
/// `values` is empty.
std::optional<double> nearest_rank_percentile(std::vector<double> values, int percent);

/// "2xx" for 200..299 and so on; "none" for 0 (no status was sent).
std::string status_class(int status);

/// One row per (operation, status class), sorted by operation then class, then the "all" row
/// (also when `entries` is empty: all zeros, no percentiles).
std::vector<journal_summary_row> summarize_journal(const std::vector<journal_entry>& entries);

/// The rows as an aligned table with a header line; "-" where a percentile has no value.
std::string render_summary_table(const std::vector<journal_summary_row>& rows);

/// The rows as a JSON array of objects, keyed like the table's header; null where a percentile
/// has no value.
nlohmann::ordered_json summary_json(const std::vector<journal_summary_row>& rows);

} // namespace s3fault::cli
