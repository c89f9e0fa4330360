#pragma once
// `s3fault bench` apart from the command line: writes the fixtures, runs every cell for every
// round (with --control, twice per round, in alternating order), summarizes, compares with a
// baseline, and removes what it wrote.
//
//   round 1: cell 1 [A B], cell 2 [A B], ...   round 2: cell 1 [B A], cell 2 [B A], ...
//
// Rounds are the outer loop, so drift over time (a store compacting, a neighbour's load) spreads
// over every cell instead of landing on one.
#include "conformance/bench/bench_summary.hpp"

#include <functional>
#include <stdexcept>

namespace s3fault::bench {

/// The store cannot be used at all (no bucket, no fixtures): the reason is in what().
class store_unusable : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// One shard's report, as `bench merge` read it.
struct merged_part {
  std::string file;
  runtime::shard shard;
  std::string endpoint;
  std::string started_at;
  std::optional<std::chrono::milliseconds> clock_offset;
};

struct bench_report {
  std::string endpoint;
  std::string bucket;
  std::string started_at; // UTC
  double seconds = 0;     // the whole bench, fixtures included
  const bench_settings* settings = nullptr;
  std::vector<cell> cells;
  std::vector<run_result> runs; // in the order they ran
  std::vector<cell_summary> summaries;
  std::string baseline_source;       // empty without --baseline
  const baseline* earlier = nullptr; // the baseline's cells (for the HTML overlays); outlives it
  std::vector<std::string> baseline_mismatches; // settings or cells that differ from the baseline
  bool interrupted = false;                     // Ctrl-C: the runs so far are summarized
  /// The shards whose runs this report holds: 1 for one process (a shard's own report
  /// included), N for `bench merge` of N shards.
  unsigned shards = 1;
  bool paced = false; // --start-at with --duration: every run had its slot (bench_schedule.hpp)
  /// The store's clock minus this bench's, from its Date header (nullopt: see the problem).
  std::optional<std::chrono::milliseconds> clock_offset;
  std::chrono::milliseconds clock_offset_uncertainty{0}; // the offset is within this
  std::string clock_offset_problem;
  std::vector<merged_part> parts; // bench merge: the shards' reports, by shard
  std::vector<std::string> notes; // bench merge: how the figures were put together
};

/// Which run is about to start: cell i of n, round r of rounds, leg.
struct run_position {
  const cell* measured = nullptr;
  std::size_t cell_index = 0;
  std::size_t cell_count = 0;
  unsigned round = 0;
  unsigned rounds = 0;
  unsigned leg = 0;
};

struct bench_observer {
  std::function<void(const bench_fixtures&)> fixtures_ready;
  std::function<void(const run_position&)> run_started;
  std::function<void(const run_position&, const run_progress&)> progress;
  std::function<void(const run_position&, const run_result&)> run_done;
  std::function<void(const std::string&)> cleanup_problem;
  std::function<void(std::uint64_t)> filling; // --prefill: the bucket is filled up to this
};

/// Throws store_unusable when the bucket or fixtures cannot be created.
bench_report run_bench(const bench_settings& settings, const baseline* earlier,
                       const bench_observer& observer);

/// 0 when every operation succeeded and, against a baseline, every compared figure was judged
/// and none regressed; else 1.
int bench_exit_status(const bench_report& report);

} // namespace s3fault::bench
