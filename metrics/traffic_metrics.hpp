#pragma once
// What the proxy measures of the traffic passing through it, per S3 operation and status class:
// requests, bytes each way, latency and time-to-first-byte histograms (the client's and the
// store's), retries; and overall:
// faults injected per rule, active connections, store connections opened and reused.
//
// Recording is lock-free (relaxed atomics; a series is created once, on its first request) except
// for the retry detector, which keeps a small map under a mutex. Each thread records into a
// shard of its own, so that two proxy workers never write the same cache lines (one shared set
// of counters cost a 4 KiB exchange about 1.4 us of its 5.5 at 2 workers); reading sums the
// shards. Counters may move while a report is written; each is read once.
#include "metrics/latency_histogram.hpp"

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace s3fault::metrics {

/// One finished exchange, as the proxy saw it.
struct exchange_sample {
  int operation = 0;              // index into operation_names()
  std::string_view bucket, key;   // for retry detection
  std::string_view part_or_range; // "part 2", "bytes=0-99" or empty
  unsigned status = 0;            // 0: no response was sent
  bool failed = false;            // error status, no answer, cut or reset body
  std::string_view faults;        // "rule:action,rule:action" (empty: none)
  std::string_view error_code;    // the answer's S3 error code (empty: none or unknown)
  std::uint64_t bytes_in = 0;     // request body bytes from the client
  std::uint64_t bytes_out = 0;    // response body bytes to the client
  std::uint64_t duration_us = 0;
  std::optional<std::uint64_t> ttfb_us;       // first response byte sent to the client
  std::optional<std::uint64_t> store_ttfb_us; // request sent -> store's response head
  bool upstream_used = false, upstream_reused = false;
  /// The retries the client itself made (the bench's, which knows them); none: the proxy's
  /// case, where a request that follows a failed one for the same object counts as a retry.
  std::optional<unsigned> known_retries;
};

/// Counters of one (operation, status class) pair.
struct alignas(64) series {
  std::atomic<std::uint64_t> requests{0}, bytes_in{0}, bytes_out{0}, retries{0};
  latency_histogram duration, ttfb, store_ttfb;

  /// Adds `other`'s counts to these.
  void add(const series& other);
};

class traffic_metrics {
public:
  static constexpr std::size_t status_classes = 6; // 0: none, 1..5: 1xx..5xx

  /// `operations`: the operation names, index = exchange_sample::operation.
  explicit traffic_metrics(
      std::vector<std::string> operations,
      std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now());

  void record(const exchange_sample& sample);
  void connection_opened() { active_connections_.fetch_add(1, std::memory_order_relaxed); }
  void connection_closed() { active_connections_.fetch_sub(1, std::memory_order_relaxed); }

  // --- reading -----------------------------------------------------------------------------
  const std::vector<std::string>& operations() const { return operations_; }
  /// The series of (operation, status class), summed over the shards, or null when it never
  /// had a request.
  std::unique_ptr<series> find(std::size_t operation, std::size_t status_class) const;
  std::map<std::string, std::uint64_t> faults_by_rule() const;
  /// Error answers by S3 error code (those whose code was known).
  std::map<std::string, std::uint64_t> errors_by_code() const;
  std::int64_t active_connections() const { return active_connections_.load(); }
  std::uint64_t upstream_new() const;
  std::uint64_t upstream_reused() const;
  double seconds_running() const;

  static std::string_view status_class_name(std::size_t status_class); // "2xx", "none"

  /// Threads beyond this many share shards (still correct, no longer apart).
  static constexpr std::size_t shard_count = 16;

private:
  /// What one thread records into (threads are given shards in turn).
  struct alignas(64) shard {
    std::vector<std::array<std::atomic<series*>, status_classes>> slots;
    std::atomic<std::uint64_t> upstream_new{0}, upstream_reused{0};
  };
  static std::size_t shard_of_this_thread();
  series& series_for(shard& own, std::size_t operation, std::size_t status_class);
  bool is_retry(const exchange_sample& sample);

  std::vector<std::string> operations_;
  std::array<shard, shard_count> shards_;
  std::vector<std::unique_ptr<series>> owned_; // guarded by create_mutex_
  std::mutex create_mutex_;
  std::atomic<std::int64_t> active_connections_{0};
  mutable std::mutex faults_mutex_;
  std::map<std::string, std::uint64_t> faults_;
  std::map<std::string, std::uint64_t> error_codes_; // guarded by faults_mutex_ too
  std::mutex retry_mutex_;
  // request signature -> when its last attempt failed (steady clock, microseconds)
  std::unordered_map<std::string, std::int64_t> failed_recently_;
  // failed_recently_.size(), readable without the lock: while nothing has failed, an exchange
  // that did not fail either skips the signature and the lock (the common case).
  std::atomic<std::size_t> remembered_{0};
  std::chrono::steady_clock::time_point started_;
};

} // namespace s3fault::metrics
