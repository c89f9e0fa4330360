#include "metrics/latency_histogram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace s3fault::metrics {
namespace {

constexpr std::uint64_t exact_limit = 1ull << latency_histogram::exact_limit_bits;
constexpr std::uint64_t per_power = 1ull << latency_histogram::sub_bucket_bits;
constexpr std::uint64_t largest = (1ull << latency_histogram::max_value_bits) - 1;

} // namespace

std::size_t latency_histogram::bucket_of(std::uint64_t micros) {
  micros = std::min(micros, largest);
  if (micros < exact_limit) {
    return static_cast<std::size_t>(micros);
  }
  const int top = 63 - std::countl_zero(micros);           // >= exact_limit_bits
  const int shift = top - sub_bucket_bits;                 // keeps the top 6 bits
  const std::uint64_t sub = (micros >> shift) - per_power; // 0..31
  return static_cast<std::size_t>(
      exact_limit + static_cast<std::uint64_t>(top - exact_limit_bits) * per_power + sub);
}

std::uint64_t latency_histogram::bucket_lowest(std::size_t bucket) {
  if (bucket < exact_limit) {
    return bucket;
  }
  const std::uint64_t above = bucket - exact_limit;
  const int top = static_cast<int>(above / per_power) + exact_limit_bits;
  const std::uint64_t sub = above % per_power;
  return (per_power + sub) << (top - sub_bucket_bits);
}

std::uint64_t latency_histogram::bucket_highest(std::size_t bucket) {
  if (bucket + 1 >= bucket_count) {
    return largest;
  }
  return bucket_lowest(bucket + 1) - 1;
}

void latency_histogram::record(std::uint64_t micros) {
  buckets_[bucket_of(micros)].fetch_add(1, std::memory_order_relaxed);
  count_.fetch_add(1, std::memory_order_relaxed);
  sum_.fetch_add(micros, std::memory_order_relaxed);
  std::uint64_t seen = max_.load(std::memory_order_relaxed);
  while (micros > seen && !max_.compare_exchange_weak(seen, micros, std::memory_order_relaxed)) {
  }
}

void latency_histogram::add(const latency_histogram& other) {
  for (std::size_t i = 0; i < bucket_count; ++i) {
    buckets_[i].fetch_add(other.buckets_[i].load(std::memory_order_relaxed),
                          std::memory_order_relaxed);
  }
  count_.fetch_add(other.count(), std::memory_order_relaxed);
  sum_.fetch_add(other.sum_micros(), std::memory_order_relaxed);
  const std::uint64_t theirs = other.max_micros();
  std::uint64_t seen = max_.load(std::memory_order_relaxed);
  while (theirs > seen && !max_.compare_exchange_weak(seen, theirs, std::memory_order_relaxed)) {
  }
}

void latency_histogram::add_buckets(const bucket_counts& counts, std::uint64_t sum_micros,
                                    std::uint64_t max_micros) {
  for (const auto& [bucket, count] : counts) {
    buckets_[std::min<std::size_t>(bucket, bucket_count - 1)].fetch_add(count,
                                                                        std::memory_order_relaxed);
    count_.fetch_add(count, std::memory_order_relaxed);
  }
  sum_.fetch_add(sum_micros, std::memory_order_relaxed);
  std::uint64_t seen = max_.load(std::memory_order_relaxed);
  while (max_micros > seen &&
         !max_.compare_exchange_weak(seen, max_micros, std::memory_order_relaxed)) {
  }
}

std::uint64_t latency_histogram::quantile(double q) const {
  // Counts are read bucket by bucket; a value recorded meanwhile may or may not be included.
  std::uint64_t total = 0;
  for (const auto& bucket : buckets_) {
    total += bucket.load(std::memory_order_relaxed);
  }
  if (total == 0) {
    return 0;
  }
  q = std::clamp(q, 0.0, 1.0);
  const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(q * total)));
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < bucket_count; ++i) {
    seen += buckets_[i].load(std::memory_order_relaxed);
    if (seen >= rank) {
      const auto low = bucket_lowest(i), high = bucket_highest(i);
      return std::min(low + (high - low) / 2, max_micros());
    }
  }
  return max_micros();
}

bucket_counts latency_histogram::nonzero_buckets() const {
  bucket_counts counts;
  for (std::size_t i = 0; i < bucket_count; ++i) {
    if (const auto n = buckets_[i].load(std::memory_order_relaxed)) {
      counts.emplace_back(static_cast<std::uint32_t>(i), n);
    }
  }
  return counts;
}

namespace {

/// `now` minus `then`, bucket by bucket (both sorted by index; a bucket only grows).
bucket_counts difference(const bucket_counts& now, const bucket_counts& then) {
  bucket_counts out;
  auto before = then.begin();
  for (const auto& [bucket, count] : now) {
    while (before != then.end() && before->first < bucket) {
      ++before;
    }
    const std::uint64_t old = before != then.end() && before->first == bucket ? before->second : 0;
    if (count > old) {
      out.emplace_back(bucket, count - old);
    }
  }
  return out;
}

std::uint64_t total_of(const bucket_counts& counts) {
  std::uint64_t total = 0;
  for (const auto& entry : counts) {
    total += entry.second;
  }
  return total;
}

} // namespace

bucket_counts latency_histogram::counts_between(const bucket_counts& now,
                                                const bucket_counts& then) {
  return difference(now, then);
}

bucket_counts latency_histogram::counts_added(const bucket_counts& a, const bucket_counts& b) {
  bucket_counts out;
  out.reserve(a.size() + b.size());
  auto left = a.begin();
  auto right = b.begin();
  while (left != a.end() || right != b.end()) {
    if (right == b.end() || (left != a.end() && left->first < right->first)) {
      out.push_back(*left++);
    } else if (left == a.end() || right->first < left->first) {
      out.push_back(*right++);
    } else {
      out.emplace_back(left->first, left->second + right->second);
      ++left;
      ++right;
    }
  }
  return out;
}

std::uint64_t latency_histogram::count_between(const bucket_counts& now,
                                               const bucket_counts& then) {
  return total_of(difference(now, then));
}

std::uint64_t latency_histogram::quantile_between(const bucket_counts& now,
                                                  const bucket_counts& then, double q) {
  const auto recent = difference(now, then);
  const auto total = total_of(recent);
  if (total == 0) {
    return 0;
  }
  q = std::clamp(q, 0.0, 1.0);
  const auto rank = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(q * total)));
  std::uint64_t seen = 0;
  for (const auto& [bucket, count] : recent) {
    seen += count;
    if (seen >= rank) {
      const auto low = bucket_lowest(bucket), high = bucket_highest(bucket);
      return low + (high - low) / 2;
    }
  }
  return 0; // not reached: the counts add up to total
}

std::uint64_t latency_histogram::count_at_or_below(std::uint64_t micros) const {
  std::uint64_t seen = 0;
  const auto last = bucket_of(micros);
  for (std::size_t i = 0; i <= last; ++i) {
    seen += buckets_[i].load(std::memory_order_relaxed);
  }
  return seen;
}

} // namespace s3fault::metrics
