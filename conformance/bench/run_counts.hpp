#pragma once
// What one run of a cell counted, exactly: operations, errors, retries, bytes, and the latency
// and time-to-first-byte histograms as buckets. The figures (MiB/s, p99, ...) are computed from
// these and a time span, in one place, both for one process's run and for the runs of several
// shards merged (`bench merge` sums the counts and adds the buckets, then computes the figures
// as if one process had run every worker).
#include "conformance/bench/bench_figures.hpp"
#include "conformance/bench/bench_settings.hpp"
#include "metrics/latency_histogram.hpp"

#include <cstdint>

namespace s3fault::bench {

struct run_counts {
  std::uint64_t succeeded = 0; // operations without error
  std::uint64_t errors = 0;
  std::uint64_t retries = 0;
  std::uint64_t bytes = 0;              // body bytes of the operations that succeeded
  std::uint64_t timed_ns = 0;           // the sum of every operation's timed span (delete's rate)
  metrics::bucket_counts latency, ttfb; // microseconds, of the operations that succeeded
  std::uint64_t latency_sum_us = 0, latency_max_us = 0;
  std::uint64_t ttfb_sum_us = 0, ttfb_max_us = 0;

  /// Adds another run's counts (another shard's run of the same cell and round).
  void add(const run_counts& other);
};

/// The figures of a run of `op` by `workers` clients that took `seconds` from its first request
/// to its last answer (rates, percentiles, operations, errors, retries; no store figures).
/// Rates and times stay empty when no operation succeeded. A delete's rate is over the time
/// spent deleting (timed_ns / workers), since each delete follows an untimed PUT.
figure_values figures_from(const run_counts& counts, operation op, unsigned workers,
                           double seconds);

} // namespace s3fault::bench
