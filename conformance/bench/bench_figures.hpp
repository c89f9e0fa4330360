#pragma once
// The figures `s3fault bench` reports for each run of a cell, with the unit and the number of
// decimals each is printed with. Values are rounded to those decimals when they are made, so the
// terminal, the CSV, the JSON and the HTML all carry the same numbers, digit for digit.
#include "conformance/bench/bench_statistics.hpp"

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::bench {

enum class figure : std::size_t {
  mib_per_second,
  ops_per_second,
  latency_p50_ms,
  latency_p90_ms,
  latency_p99_ms,
  latency_max_ms,
  ttfb_p50_ms,
  ttfb_p90_ms,
  ttfb_p99_ms,
  ttfb_max_ms,
  operations, // completed without error
  errors,     // failed after retries, or a read of the wrong length or content
  retries,    // attempts repeated after SlowDown, 5xx or a broken connection
  store_rss_max_mib,
  store_rss_mean_mib,
  store_threads_max,
  store_threads_mean,
  store_cpu_max_percent, // of one core, over a sampling interval
  store_cpu_mean_percent,
};
inline constexpr std::size_t figure_count = 19;

struct figure_info {
  std::string_view key;   // CSV column and JSON name, e.g. "latency_p99_ms"
  std::string_view label; // for tables, e.g. "p99"
  int decimals;
  better direction;
  bool compared;   // part of a baseline comparison
  bool from_store; // only with --store-pid
};
const figure_info& info(figure f);
figure figure_at(std::size_t index);
std::optional<figure> figure_named(std::string_view key);

/// "MiB/s", "ops/s", "lat p50", "ttfb p99", "errors", "RSS max MiB", ...
std::string column_title(figure f);

/// The figures a baseline comparison looks at, in figure order.
std::vector<figure> compared_figures();

/// One value per figure; empty where it was not measured (store figures without --store-pid).
using figure_values = std::array<std::optional<double>, figure_count>;

/// Sets the figure's value, rounded to its decimals.
void set_figure(figure_values& values, figure f, double value);
/// The value with exactly the figure's decimals: "1234.57", "12.345", "3".
std::string format_figure(figure f, double value);

} // namespace s3fault::bench
