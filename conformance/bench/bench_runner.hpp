#pragma once
// `s3fault bench` apart from the command line: writes the fixtures on every store, runs every
// cell on every store for every round (with --control, twice per round, in alternating order),
// summarizes, compares (with a baseline, or the stores with the first) and removes what it
// wrote.
//
//   round 1: cell 1 [a b], cell 2 [a b], ...   round 2: cell 1 [b a], cell 2 [b a], ...
//   (--control: each store's run of a cell is a pair, its legs alternating from round to round)
//
// Rounds are the outer loop, so drift over time (a store compacting, a neighbour's load) spreads
// over every cell instead of landing on one; the stores' order rotates from round to round, so
// that it falls on every store alike.
#include "conformance/bench/comparison_engine.hpp"
#include "metrics/timeline_report.hpp"

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
  std::string endpoint; // its stores' endpoints, joined
  std::string started_at;
  std::optional<std::chrono::milliseconds> clock_offset;
};

/// Where one store's objects were: its name, endpoint and bucket.
struct store_place {
  std::string name; // empty for the one store of --endpoint
  std::string endpoint;
  std::string bucket;
};

struct bench_report {
  std::vector<store_place> stores; // in bench_settings::stores order
  std::string started_at;          // UTC
  double seconds = 0;              // the whole bench, fixtures included
  const bench_settings* settings = nullptr;
  std::vector<cell> cells;
  std::vector<run_result> runs;        // in the order they ran
  std::vector<cell_summary> summaries; // cell by cell, within a cell store by store
  /// What the figures were compared with (comparison_engine.hpp).
  reference_kind reference = reference_kind::none;
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
  /// --timeline: the measured runs' traffic and the store, interval by interval.
  std::optional<metrics::timeline_record> timeline;
};

/// Which run is about to start: cell i of n, round r of rounds, on which store, leg.
struct run_position {
  const cell* measured = nullptr;
  std::size_t cell_index = 0;
  std::size_t cell_count = 0;
  unsigned round = 0;
  unsigned rounds = 0;
  unsigned leg = 0;
  const store_target* store = nullptr;
  std::size_t store_count = 1;
};

struct bench_observer {
  /// Every store's fixtures are written: the report names their buckets.
  std::function<void(const bench_report&)> fixtures_ready;
  std::function<void(const run_position&)> run_started;
  std::function<void(const run_position&, const run_progress&)> progress;
  std::function<void(const run_position&, const run_result&)> run_done;
  std::function<void(const std::string&)> cleanup_problem;
  std::function<void(std::uint64_t)> filling; // --prefill: the bucket is filled up to this
};

/// Throws store_unusable when the bucket or fixtures cannot be created on a store.
bench_report run_bench(const bench_settings& settings, const baseline* earlier,
                       const bench_observer& observer);

/// Summarizes the report's runs and judges them against its reference: the baseline when
/// there is one, else the first store when there are several. What run_bench and bench merge
/// do once the runs are in.
void summarize_and_compare(bench_report& report, const baseline* earlier);

/// 0 when every operation succeeded and every compared figure was judged and conclusive (or
/// --allow-inconclusive) and, against a baseline, none regressed; else 1. A store slower than
/// the reference is a finding, not a failure.
int bench_exit_status(const bench_report& report);

/// Whether the report holds several stores (a store column, a series per store).
bool several_stores(const bench_report& report);
/// "get 1MiB c=4", with several stores "get 1MiB c=4 on b".
std::string describe(const bench_report& report, const cell_summary& summary);

/// "a (http://127.0.0.1:9000, bucket s3fault-bench-x)", or for one unnamed store
/// "http://127.0.0.1:9000, bucket s3fault-bench-x"; several joined by "; ".
std::string describe_stores(const bench_report& report);

} // namespace s3fault::bench
