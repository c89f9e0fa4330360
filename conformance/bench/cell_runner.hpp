#pragma once
// Runs one cell once: `concurrency` workers repeat the cell's operation until the duration is
// over (or --count operations are done), latencies and times to first byte go into histograms,
// and the store's processes are sampled meanwhile. The result is one set of figures.
#include "conformance/bench/bench_figures.hpp"
#include "conformance/bench/operation_runner.hpp"
#include "conformance/bench/run_counts.hpp"
#include "metrics/traffic_metrics.hpp"

#include <functional>
#include <memory>
#include <vector>

namespace s3fault::bench {

/// One run of one cell.
struct run_result {
  cell measured;
  std::size_t store = 0;      // in bench_settings::stores
  std::size_t cell_index = 0; // in plan_cells order
  unsigned round = 0;         // 1-based
  unsigned leg = 0;           // 0, or 1 for the second run of a control pair
  figure_values values{};     // rounded to each figure's decimals
  double seconds = 0;         // wall time from the first request to the last answer
  std::uint64_t bytes = 0;    // body bytes of the operations that succeeded
  unsigned workers = 0;       // clients that ran it: the cell's concurrency, or a shard's share
  run_counts counts;          // what the figures were computed from (bench merge sums these)
  /// The first request and the last answer by this process's clock (bench_clock), in
  /// microseconds since the Unix epoch: where the runs of several shards are lined up.
  std::int64_t started_unix_us = 0;
  std::int64_t ended_unix_us = 0;
  std::string first_error; // the first failure, when there were errors
  std::string store_error; // a store process that could not be sampled
  std::string note;        // the first operation_outcome::note
  /// Ended early by a stop signal (Ctrl-C): fewer operations or a shorter window than asked.
  bool cut_short = false;
};

/// What the caller sees while a run is in progress.
struct run_progress {
  double elapsed_seconds = 0;
  std::uint64_t operations = 0; // finished, with or without error
  std::uint64_t bytes = 0;
  double recent_mib_per_second = 0; // since the previous report
};

/// The workers' clients, kept from cell to cell so that connections stay open (only the first
/// cell pays for connecting; a store that closed an idle connection is re-connected at once).
class worker_pool {
public:
  worker_pool(const bench_settings& settings, const bench_fixtures& fixtures);
  operation_runner& worker(unsigned index);
  /// The store the workers drive.
  const store_target& store() const { return fixtures_.store(); }

private:
  const bench_settings& settings_;
  const bench_fixtures& fixtures_;
  std::vector<std::unique_ptr<operation_runner>> workers_;
};

/// How one run is started: its clients, its operations, and when.
struct run_start {
  unsigned workers = 0;               // 0: the cell's concurrency (a shard runs its share)
  std::optional<std::uint64_t> count; // operations when settings.count is set (a shard's share)
  /// Connected first, then the first request at this time by bench_clock (--start-at); nullopt
  /// or a time passed: at once.
  std::optional<std::chrono::system_clock::time_point> not_before;
  bool sample_store = true; // the store's processes (--store-pid); not during --warmup
  /// --timeline: every operation is recorded here too, as operation `timeline_operation`.
  metrics::traffic_metrics* timeline = nullptr;
  int timeline_operation = 0;
};

/// Runs `measured` once. `progress` is called from the calling thread about every
/// `progress_every` while the workers run.
run_result run_cell(const bench_settings& settings, worker_pool& workers, const cell& measured,
                    const std::function<void(const run_progress&)>& progress,
                    const run_start& start = {},
                    std::chrono::milliseconds progress_every = std::chrono::milliseconds(500));

} // namespace s3fault::bench
