#pragma once
// Drift over a run, stated rather than eyeballed: for each operation, latency p50 and p90 and
// throughput in the first sixth of the timeline against the last sixth, judged by the bench's
// comparison (comparison_statistics.hpp: interval, p, the change it could detect, "cannot
// tell"); then the store's peak threads and memory and the correlation between them.
//
// Neighbouring intervals are not independent (a slow minute makes slow seconds), and thousands
// of them would make any wobble significant. So each sixth is cut into a few blocks of many
// intervals, one figure per block (the percentile of the block's merged histogram, the block's
// bytes over its length), and the blocks are compared as the bench compares rounds.
#include "metrics/comparison_statistics.hpp"
#include "metrics/timeline.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::metrics {

struct drift_rules {
  judging_rules judging;            // alpha, power, min_change_percent (no control band)
  std::size_t blocks_per_sixth = 5; // figures a side; fewer when a sixth has fewer intervals
};

/// One figure of one operation, first sixth against last.
struct figure_drift {
  std::string figure; // "latency p50", "latency p90", "MiB/s" or "requests/s"
  std::string unit;   // "ms", "MiB/s", "req/s"
  better direction = better::lower;
  std::vector<double> first_blocks, last_blocks; // one value per block with traffic
  comparison result;
};

struct operation_drift {
  std::string operation;
  std::vector<figure_drift> figures;
};

/// The store's threads and memory over the run.
struct store_trend {
  std::size_t samples = 0; // intervals with a reading
  std::uint64_t peak_threads = 0;
  std::uint64_t peak_memory_bytes = 0;
  std::uint64_t peak_anon_bytes = 0;
  double first_sixth_threads = 0, last_sixth_threads = 0; // means
  double first_sixth_anon_bytes = 0, last_sixth_anon_bytes = 0;
  /// Pearson r between threads and anonymous memory over the samples; none when either never
  /// moved or there are fewer than 3 samples.
  std::optional<double> threads_memory_r;
};

struct drift_report {
  double run_seconds = 0;
  double first_sixth_end = 0; // seconds since the start
  double last_sixth_start = 0;
  std::size_t intervals = 0;
  std::size_t intervals_per_block = 0;
  std::size_t blocks_per_side = 0;
  std::string not_judged; // why there is no drift at all (a run too short), else empty
  std::vector<operation_drift> operations;
  std::optional<store_trend> store;
};

/// The drift of a timeline's intervals (oldest first, as timeline::intervals gives them). The
/// sixths are of the traffic's span: idle intervals before the first request and after the
/// last are left out (the store's figures are of every interval).
drift_report judge_drift(const std::vector<timeline_interval>& intervals, const drift_rules& rules);

/// Two runs' whole-run figures (the store with and without its knobs): each run's timeline cut
/// into `rules.blocks_per_sixth` * 2 blocks, compared as the sixths are, `second` against
/// `first`. The figures' first_blocks are the first run's.
struct runs_comparison {
  std::size_t blocks_per_run = 0;
  double first_block_seconds = 0, second_block_seconds = 0;
  std::string not_judged; // a run too short to cut into two blocks
  std::vector<operation_drift> operations;
};
runs_comparison compare_runs(const std::vector<timeline_interval>& first,
                             const std::vector<timeline_interval>& second,
                             const drift_rules& rules);

/// Pearson's r of two series of equal length; none when either is constant or shorter than 3.
std::optional<double> pearson_r(const std::vector<double>& x, const std::vector<double>& y);

/// How the drift is judged, in one paragraph: for reports and docs alike.
std::string drift_method_text(const drift_rules& rules);

} // namespace s3fault::metrics
