#include "metrics/traffic_metrics.hpp"

namespace s3fault::metrics {
namespace {

// A repeat this long after a failure is still a retry; older failures are forgotten.
constexpr std::int64_t retry_window_us = 60'000'000;
// Bounds the retry detector's memory: past this many remembered failures the oldest go.
constexpr std::size_t max_remembered_failures = 4096;

std::size_t status_class_of(unsigned status) {
  return status >= 100 && status < 600 ? status / 100 : 0;
}

} // namespace

void series::add(const series& other) {
  requests.fetch_add(other.requests.load(std::memory_order_relaxed), std::memory_order_relaxed);
  bytes_in.fetch_add(other.bytes_in.load(std::memory_order_relaxed), std::memory_order_relaxed);
  bytes_out.fetch_add(other.bytes_out.load(std::memory_order_relaxed), std::memory_order_relaxed);
  retries.fetch_add(other.retries.load(std::memory_order_relaxed), std::memory_order_relaxed);
  duration.add(other.duration);
  ttfb.add(other.ttfb);
  store_ttfb.add(other.store_ttfb);
}

traffic_metrics::traffic_metrics(std::vector<std::string> operations,
                                 std::chrono::steady_clock::time_point started)
    : operations_(std::move(operations)), started_(started) {
  for (auto& own : shards_) {
    own.slots = decltype(own.slots)(operations_.size());
  }
}

std::size_t traffic_metrics::shard_of_this_thread() {
  static std::atomic<std::size_t> next{0};
  thread_local const std::size_t mine = next.fetch_add(1, std::memory_order_relaxed) % shard_count;
  return mine;
}

std::string_view traffic_metrics::status_class_name(std::size_t status_class) {
  static constexpr std::string_view names[] = {"none", "1xx", "2xx", "3xx", "4xx", "5xx"};
  return status_class < status_classes ? names[status_class] : "none";
}

series& traffic_metrics::series_for(shard& own, std::size_t operation, std::size_t status_class) {
  auto& slot = own.slots[operation][status_class];
  if (series* existing = slot.load(std::memory_order_acquire)) {
    return *existing;
  }
  std::lock_guard lock(create_mutex_);
  if (series* existing = slot.load(std::memory_order_acquire)) {
    return *existing;
  }
  owned_.push_back(std::make_unique<series>());
  slot.store(owned_.back().get(), std::memory_order_release);
  return *owned_.back();
}

std::unique_ptr<series> traffic_metrics::find(std::size_t operation,
                                              std::size_t status_class) const {
  if (operation >= operations_.size() || status_class >= status_classes) {
    return nullptr;
  }
  std::unique_ptr<series> sum;
  for (const auto& own : shards_) {
    if (const series* part = own.slots[operation][status_class].load(std::memory_order_acquire)) {
      if (!sum) {
        sum = std::make_unique<series>();
      }
      sum->add(*part);
    }
  }
  return sum;
}

std::uint64_t traffic_metrics::upstream_new() const {
  std::uint64_t total = 0;
  for (const auto& own : shards_) {
    total += own.upstream_new.load(std::memory_order_relaxed);
  }
  return total;
}

std::uint64_t traffic_metrics::upstream_reused() const {
  std::uint64_t total = 0;
  for (const auto& own : shards_) {
    total += own.upstream_reused.load(std::memory_order_relaxed);
  }
  return total;
}

bool traffic_metrics::is_retry(const exchange_sample& sample) {
  // A fault counts as a failure even when the status looked fine (a consistent truncation):
  // the client may have noticed and asked again.
  const bool disturbed = sample.failed || !sample.faults.empty();
  if (!disturbed && remembered_.load(std::memory_order_relaxed) == 0) {
    return false;
  }
  const auto now = std::chrono::duration_cast<std::chrono::microseconds>(
                       std::chrono::steady_clock::now() - started_)
                       .count();
  std::string signature;
  signature.reserve(sample.bucket.size() + sample.key.size() + sample.part_or_range.size() + 8);
  signature.append(std::to_string(sample.operation)).append(" ").append(sample.bucket);
  signature.append("/").append(sample.key).append(" ").append(sample.part_or_range);
  std::lock_guard lock(retry_mutex_);
  bool retry = false;
  if (const auto found = failed_recently_.find(signature); found != failed_recently_.end()) {
    retry = now - found->second <= retry_window_us;
    failed_recently_.erase(found);
  }
  if (disturbed) {
    if (failed_recently_.size() >= max_remembered_failures) {
      failed_recently_.clear();
    }
    failed_recently_.emplace(std::move(signature), now);
  }
  remembered_.store(failed_recently_.size(), std::memory_order_relaxed);
  return retry;
}

void traffic_metrics::record(const exchange_sample& sample) {
  const std::size_t operation =
      sample.operation >= 0 && static_cast<std::size_t>(sample.operation) < operations_.size()
          ? static_cast<std::size_t>(sample.operation)
          : operations_.size() - 1;
  auto& own = shards_[shard_of_this_thread()];
  auto& s = series_for(own, operation, status_class_of(sample.status));
  s.requests.fetch_add(1, std::memory_order_relaxed);
  s.bytes_in.fetch_add(sample.bytes_in, std::memory_order_relaxed);
  s.bytes_out.fetch_add(sample.bytes_out, std::memory_order_relaxed);
  s.duration.record(sample.duration_us);
  if (sample.ttfb_us) {
    s.ttfb.record(*sample.ttfb_us);
  }
  if (sample.store_ttfb_us) {
    s.store_ttfb.record(*sample.store_ttfb_us);
  }
  if (sample.known_retries) {
    s.retries.fetch_add(*sample.known_retries, std::memory_order_relaxed);
  } else if (is_retry(sample)) {
    s.retries.fetch_add(1, std::memory_order_relaxed);
  }
  if (sample.upstream_used) {
    (sample.upstream_reused ? own.upstream_reused : own.upstream_new)
        .fetch_add(1, std::memory_order_relaxed);
  }
  if (!sample.faults.empty()) {
    std::lock_guard lock(faults_mutex_);
    std::string_view rest = sample.faults;
    while (!rest.empty()) {
      const auto comma = rest.find(',');
      const auto one = rest.substr(0, comma);
      const auto colon = one.find(':');
      ++faults_[std::string(one.substr(0, colon))];
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  if (!sample.error_code.empty()) {
    std::lock_guard lock(faults_mutex_);
    ++error_codes_[std::string(sample.error_code)];
  }
}

std::map<std::string, std::uint64_t> traffic_metrics::errors_by_code() const {
  std::lock_guard lock(faults_mutex_);
  return error_codes_;
}

std::map<std::string, std::uint64_t> traffic_metrics::faults_by_rule() const {
  std::lock_guard lock(faults_mutex_);
  return faults_;
}

double traffic_metrics::seconds_running() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
}

} // namespace s3fault::metrics
