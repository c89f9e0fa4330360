#pragma once
// A latency histogram with bounded relative error and constant memory, safe to record into from
// many threads at once (relaxed atomic counters) and to read while it is being written.
//
// Values are whole microseconds. Below 64 every value has its own bucket; above, each power of
// two is split into 32 buckets, so a bucket's width is at most 1/32 of its lower bound and the
// midpoint reported for a quantile is within 1/64 (1.6 %) of any value in it. Values up to
// 2^40 us (12.7 days) are kept; larger ones land in the last bucket. ~9.5 KiB per histogram.
#include <array>
#include <atomic>
#include <cstdint>
#include <utility>
#include <vector>

namespace s3fault::metrics {

/// A histogram's non-empty buckets at one moment, (bucket index, count) by index: what a look
/// at the traffic keeps, so that quantiles of what came after it can be computed.
using bucket_counts = std::vector<std::pair<std::uint32_t, std::uint64_t>>;

class latency_histogram {
public:
  static constexpr int exact_limit_bits = 6; // values below 2^6 are exact
  static constexpr int sub_bucket_bits = 5;  // 32 buckets per power of two above that
  static constexpr int max_value_bits = 40;
  static constexpr std::size_t bucket_count =
      (1u << exact_limit_bits) +
      static_cast<std::size_t>(max_value_bits - exact_limit_bits) * (1u << sub_bucket_bits);

  void record(std::uint64_t micros);
  /// Adds `other`'s counts to these (for sums over the shards of traffic_metrics).
  void add(const latency_histogram& other);
  /// Adds counts kept earlier by nonzero_buckets() with their sum and maximum (bench merge: the
  /// histograms of several processes' runs, read back from their reports).
  void add_buckets(const bucket_counts& counts, std::uint64_t sum_micros, std::uint64_t max_micros);

  std::uint64_t count() const { return count_.load(std::memory_order_relaxed); }
  std::uint64_t sum_micros() const { return sum_.load(std::memory_order_relaxed); }
  std::uint64_t max_micros() const { return max_.load(std::memory_order_relaxed); }
  /// The value at quantile q (0..1) within the relative error above; 0 when empty. The maximum
  /// is exact.
  std::uint64_t quantile(double q) const;
  /// How many recorded values are <= `micros` (exact at bucket bounds, the bucket holding
  /// `micros` counted whole otherwise): for Prometheus `le` buckets.
  std::uint64_t count_at_or_below(std::uint64_t micros) const;

  bucket_counts nonzero_buckets() const;
  /// The quantile q of the values recorded between two looks (`now` minus `then`), within the
  /// same relative error; 0 when nothing was.
  static std::uint64_t quantile_between(const bucket_counts& now, const bucket_counts& then,
                                        double q);
  /// How many values were recorded between two looks.
  static std::uint64_t count_between(const bucket_counts& now, const bucket_counts& then);
  /// The counts recorded between two looks, bucket by bucket (a timeline's interval).
  static bucket_counts counts_between(const bucket_counts& now, const bucket_counts& then);
  /// Two sets of counts added bucket by bucket (two intervals merged into one).
  static bucket_counts counts_added(const bucket_counts& a, const bucket_counts& b);

  static std::size_t bucket_of(std::uint64_t micros);
  static std::uint64_t bucket_lowest(std::size_t bucket);
  static std::uint64_t bucket_highest(std::size_t bucket);

private:
  std::array<std::atomic<std::uint64_t>, bucket_count> buckets_{};
  std::atomic<std::uint64_t> count_{0};
  std::atomic<std::uint64_t> sum_{0};
  std::atomic<std::uint64_t> max_{0};
};

} // namespace s3fault::metrics
