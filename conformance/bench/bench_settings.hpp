#pragma once
// What `s3fault bench` runs: the operations, object sizes and concurrencies whose product is the
// list of cells, how long each cell runs, how often it is repeated, and the fixtures it reads.
#include "conformance/bench/bench_statistics.hpp"
#include "conformance/client/s3_client.hpp"
#include "metrics/store_probe.hpp"
#include "runtime/shard.hpp"

#include <atomic>
#include <chrono>
#include <compare>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::bench {

class workload;

/// One timed operation: a workload of the registry (workload_registry.hpp), by its place there.
/// A small value that cells, reports and baselines carry, compare and order (in the registry's
/// order); what the operation does is its workload's.
class operation {
public:
  /// A workload known to be registered (defaults, tests): std::logic_error for another name.
  static operation named(std::string_view name);

  const bench::workload& workload() const;
  friend auto operator<=>(const operation&, const operation&) = default;
  /// The registered workload spelt `text` (--ops, --mix, reports, baselines: "get-parts");
  /// nullopt for none.
  friend std::optional<operation> parse_operation(std::string_view text);

private:
  explicit operation(std::size_t index) : index_(index) {}
  std::size_t index_;
};
/// The workload's name, as --ops spells it: "put", "get-parts", ...
std::string_view to_string(operation op);
std::optional<operation> parse_operation(std::string_view text);
/// "(nearest: get-parts, get; known: put, get, ...)": what a message adds to a name
/// parse_operation refused, the names nearest to it first.
std::string operation_choices(std::string_view text);

/// One cell of the matrix.
struct cell {
  operation op = operation::named("get");
  std::uint64_t size = 0;
  unsigned concurrency = 1;
  std::uint64_t stored = 0; // --prefill: bytes of filler objects in the bucket while it runs
};
/// "get 10MiB c=32", with --prefill "get 10MiB c=32 stored=4GiB"
std::string describe(const cell& c);
/// "4KiB", "10MiB", "1.5MiB", "1000B": the shortest exact spelling in powers of 1024.
std::string format_size(std::uint64_t bytes);

/// One store a bench drives: its name (empty for the one store of --endpoint), how to reach
/// it, and what to sample while it runs: its processes (--store-pid) or its cgroup
/// (--store-cgroup), not both.
struct store_target {
  std::string name;
  client::client_config client; // endpoint, keys, TLS, timeouts
  std::vector<int> pids;
  std::optional<metrics::store_probe> cgroup = {}; // a probe of_cgroup, or none
};

/// What to sample of the store while it runs: its processes (--store-pid), else its cgroup
/// (--store-cgroup), else nothing.
std::optional<metrics::store_probe> store_probe_of(const store_target& store);

/// How a store is named in text: "b", or "the store" for the one unnamed store.
std::string store_label(const store_target& store);

/// Whether `name` can name a store: 1 to 32 letters, digits, '-', '_' or '.' (it is a CSV
/// field, a JSON key and the NAME of --baseline FILE:NAME).
bool store_name_usable(std::string_view name);
inline constexpr const char* store_name_rule =
    "a store's name is 1 to 32 letters, digits, '-', '_' or '.'";

struct bench_settings {
  /// The stores every cell runs on, the first the reference of a store comparison (--store
  /// NAME=URL ...); one unnamed store for --endpoint. Their order rotates from round to round
  /// (run_order), so drift falls on every store alike.
  std::vector<store_target> stores{1};
  std::vector<operation> operations{operation::named("get")};
  std::vector<std::uint64_t> sizes{1024 * 1024};
  std::vector<unsigned> concurrencies{1, 8, 32};
  /// --prefill: stored volumes in ascending order; the bucket is filled up to each in turn and
  /// every cell runs at each (empty: no filler, one step at 0).
  std::vector<std::uint64_t> prefill;
  std::chrono::milliseconds duration{10'000}; // per cell and round, unless `count` is set
  std::optional<std::uint64_t> count;         // operations per cell and round instead
  unsigned rounds = 3;
  std::chrono::milliseconds warmup{0}; // every cell runs this long, unmeasured, before round 1
  /// --timeline: the measured runs' operations recorded interval by interval (bench_timeline.hpp)
  std::optional<std::chrono::milliseconds> timeline;
  /// --mix: the operations of a mix cell with their weights, e.g. get 70, put 20, delete 10.
  std::vector<std::pair<operation, unsigned>> mix;
  unsigned objects = 8;                      // fixtures per size (and keys PUT rotates over)
  std::uint64_t part_size = 8 * 1024 * 1024; // multipart part size and range size
  bool verify = true;    // content hash of every read, ETag of every put (length: always)
  bool control = false;  // each cell twice per round, in alternation
  judging_rules judging; // --alpha, --min-change (noise_band unused)
  /// Threads the workers run on, as fibers of one event loop per thread (0: one per core). Over
  /// TLS each worker has a thread of its own (the TLS I/O blocks its thread).
  unsigned client_threads = 0;
  unsigned max_attempts = 5;                  // per operation, for SlowDown/500/503/transport
  std::chrono::milliseconds backoff_base{50}; // full-jitter exponential backoff
  std::chrono::milliseconds backoff_cap{2000};
  /// Against a baseline or between stores: a figure whose rounds could not tell (the
  /// inconclusive rule, comparison::conclusive) does not fail the bench.
  bool allow_inconclusive = false;
  std::string bucket;     // existing bucket; default: create one
  bool keep = false;      // leave the fixtures and bucket in place
  std::uint64_t seed = 1; // fixture bytes and backoff jitter
  /// --shard: this process runs its share of every cell's clients (and of --count), under its
  /// own key prefix; `bench merge` puts the shards' reports together.
  runtime::shard shard;
  /// --start-at: the first run starts then (by the bench's clock), and with --duration every
  /// run has its slot after it (bench_schedule.hpp), so that the shards' runs line up.
  std::optional<std::chrono::system_clock::time_point> start_at;
  /// Added to the system clock: a test's way to play a machine whose clock is off.
  std::chrono::milliseconds test_clock_offset{0};
  const std::atomic<bool>* stop_requested = nullptr; // Ctrl-C: finish the run in progress
};

/// The operations a cell's workers run: the mix's for a mix cell, else the cell's own.
std::vector<operation> operations_of(const cell& c, const bench_settings& settings);
/// The operation of a mix cell's operation number `index`: drawn by weight from a hash of the
/// index and the seed, so every round runs the same sequence.
operation pick_from_mix(const std::vector<std::pair<operation, unsigned>>& mix, std::uint64_t index,
                        std::uint64_t seed);
/// --mix's entries ("get=70", "put=20") as operations and weights; each mistake named in
/// `problems`.
std::vector<std::pair<operation, unsigned>> parse_mix(const std::vector<std::string>& entries,
                                                      std::vector<std::string>& problems);
/// "get=70,put=20,delete=10"
std::string describe_mix(const std::vector<std::pair<operation, unsigned>>& mix);

/// The cells in the order they run: stored volumes outermost, then operations (in the order
/// given), then sizes, then concurrencies.
std::vector<cell> plan_cells(const bench_settings& settings);

/// The order the stores run each cell in round `round` (1-based): the stores rotated by
/// round - 1, so that over a multiple of the store count rounds each store takes each place
/// equally often (two stores: A B, then B A).
std::vector<std::size_t> run_order(std::size_t stores, unsigned round);

/// The rounds a bench runs by default: 3, rounded up to a multiple of the store count.
unsigned default_rounds(std::size_t stores);

/// Problems with the settings, one line each (empty when usable).
std::vector<std::string> validate(const bench_settings& settings);

} // namespace s3fault::bench
