#include "metrics/timeline.hpp"

#include <algorithm>
#include <utility>

namespace s3fault::metrics {
namespace {

void add_into(operation_interval& into, const operation_interval& more) {
  into.requests += more.requests;
  into.errors += more.errors;
  into.retries += more.retries;
  into.bytes += more.bytes;
  into.latency = latency_histogram::counts_added(into.latency, more.latency);
  into.ttfb = latency_histogram::counts_added(into.ttfb, more.ttfb);
  into.latency.shrink_to_fit(); // the cap counts capacity
  into.ttfb.shrink_to_fit();
}

std::optional<store_interval> merged_store(const timeline_interval& earlier,
                                           const timeline_interval& later) {
  if (!earlier.store || !later.store) {
    return later.store ? later.store : earlier.store;
  }
  store_interval out;
  out.memory_bytes = std::max(earlier.store->memory_bytes, later.store->memory_bytes);
  out.anon_bytes = std::max(earlier.store->anon_bytes, later.store->anon_bytes);
  out.threads = std::max(earlier.store->threads, later.store->threads);
  out.cpu_seconds = later.store->cpu_seconds;
  const double first = earlier.end - earlier.start;
  const double second = later.end - later.start;
  out.cpu_percent = first + second > 0
                        ? (earlier.store->cpu_percent * first + later.store->cpu_percent * second) /
                              (first + second)
                        : later.store->cpu_percent;
  return out;
}

} // namespace

timeline_interval merged(const timeline_interval& earlier, const timeline_interval& later) {
  timeline_interval out = earlier;
  out.end = later.end;
  for (const auto& [operation, traffic] : later.operations) {
    add_into(out.operations[operation], traffic);
  }
  out.store = merged_store(earlier, later);
  if (!later.store_error.empty()) {
    out.store_error = later.store_error;
  }
  return out;
}

std::size_t footprint(const timeline_interval& interval) {
  // A std::map node holds its key and value beside three pointers and a colour.
  constexpr std::size_t map_node = 4 * sizeof(void*);
  std::size_t bytes = sizeof(timeline_interval) + interval.store_error.capacity();
  for (const auto& [operation, traffic] : interval.operations) {
    bytes +=
        map_node + sizeof(operation) + operation.capacity() + sizeof(traffic) +
        (traffic.latency.capacity() + traffic.ttfb.capacity()) * sizeof(bucket_counts::value_type);
  }
  return bytes;
}

timeline::timeline(double interval_seconds, std::size_t byte_cap)
    : interval_seconds_(interval_seconds), byte_cap_(byte_cap) {}

void timeline::add(timeline_interval next) {
  std::lock_guard lock(mutex_);
  if (!kept_.empty() && spans_.back() < factor_) {
    bytes_ -= footprint(kept_.back());
    kept_.back() = merged(kept_.back(), next);
    bytes_ += footprint(kept_.back());
    ++spans_.back();
  } else {
    bytes_ += footprint(next);
    kept_.push_back(std::move(next));
    spans_.push_back(1);
  }
  // Merging two neighbours can keep as many buckets as the two had, so it may take more than
  // one pass; a single interval over the cap is kept (there is nothing to merge it with).
  while (bytes_ > byte_cap_ && kept_.size() > 1) {
    merge_pairs();
  }
}

void timeline::merge_pairs() {
  std::vector<timeline_interval> pairs;
  std::vector<unsigned> spans;
  pairs.reserve(kept_.size() / 2 + 1);
  for (std::size_t i = 0; i < kept_.size(); i += 2) {
    if (i + 1 < kept_.size()) {
      pairs.push_back(merged(kept_[i], kept_[i + 1]));
      spans.push_back(spans_[i] + spans_[i + 1]);
    } else {
      pairs.push_back(std::move(kept_[i]));
      spans.push_back(spans_[i]);
    }
  }
  kept_ = std::move(pairs);
  spans_ = std::move(spans);
  factor_ *= 2;
  bytes_ = 0;
  for (const auto& interval : kept_) {
    bytes_ += footprint(interval);
  }
}

std::vector<timeline_interval> timeline::intervals() const {
  std::lock_guard lock(mutex_);
  return kept_;
}

double timeline::resolution_seconds() const {
  std::lock_guard lock(mutex_);
  return interval_seconds_ * factor_;
}

std::size_t timeline::bytes_kept() const {
  std::lock_guard lock(mutex_);
  return bytes_;
}

} // namespace s3fault::metrics
