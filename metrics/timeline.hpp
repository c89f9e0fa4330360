#pragma once
// A run's timeline (--timeline INTERVAL): per interval and per S3 operation, the requests,
// errors, retries, bytes and the latency and TTFB histograms of that interval alone; and the
// store's threads, memory and CPU read at the interval's end. Bounded whatever the run's
// length: when the intervals kept would take more than the cap (32 MiB unless told), they are
// merged two by two and the resolution doubles, so a day at 1 s keeps the whole day at a
// coarser grain. Nothing is kept per request. Merging adds counts and histograms bucket by
// bucket, so a merged interval's percentiles are those of its traffic, not averages.
#include "metrics/latency_histogram.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::metrics {

inline constexpr double bytes_per_mib = 1024.0 * 1024.0;

/// One operation's traffic in one interval.
struct operation_interval {
  std::uint64_t requests = 0;
  std::uint64_t errors = 0; // answers of class 4xx or 5xx, and exchanges that got no answer
  std::uint64_t retries = 0;
  std::uint64_t bytes = 0;     // body bytes both ways
  bucket_counts latency, ttfb; // latency_histogram buckets of this interval's requests
};

/// The store over one interval: the peaks of its readings, and its CPU.
struct store_interval {
  std::uint64_t memory_bytes = 0; // peak over the interval's readings
  std::uint64_t anon_bytes = 0;   // peak
  std::uint64_t threads = 0;      // peak
  double cpu_seconds = 0;         // the store's CPU time at the interval's end (cumulative)
  double cpu_percent = 0;         // CPU time spent in the interval over its length, of one core
};

struct timeline_interval {
  double start = 0; // seconds since the run started
  double end = 0;
  std::map<std::string, operation_interval> operations; // only those that moved
  std::optional<store_interval> store;                  // none: not sampled, or unreadable
  std::string store_error; // why the store could not be read in this interval
};

/// `later` folded into `earlier` (neighbours, `earlier` first): counts and histograms added,
/// the store's peaks kept and its CPU averaged over the two lengths.
timeline_interval merged(const timeline_interval& earlier, const timeline_interval& later);

/// What an interval takes in memory, near enough to hold a cap: its maps, names and buckets.
std::size_t footprint(const timeline_interval& interval);

class timeline {
public:
  static constexpr std::size_t default_byte_cap = 32u * 1024 * 1024;

  explicit timeline(double interval_seconds, std::size_t byte_cap = default_byte_cap);

  /// Appends the next interval (safe from any thread). While the kept intervals are coarser
  /// than the ones added, each is folded into the last kept until that one is as long.
  void add(timeline_interval next);

  std::vector<timeline_interval> intervals() const;             // a copy, oldest first
  double interval_seconds() const { return interval_seconds_; } // as asked
  double resolution_seconds() const;                            // as kept, after merges
  std::size_t bytes_kept() const;
  std::size_t byte_cap() const { return byte_cap_; }

private:
  void merge_pairs(); // under mutex_

  double interval_seconds_;
  std::size_t byte_cap_;
  mutable std::mutex mutex_;
  std::vector<timeline_interval> kept_;
  std::vector<unsigned> spans_; // how many added intervals each kept one holds
  unsigned factor_ = 1;         // how many each kept one holds once whole
  std::size_t bytes_ = 0;
};

} // namespace s3fault::metrics
