#include "metrics/timeline_recorder.hpp"

#include <chrono>
#include <utility>

namespace s3fault::metrics {
namespace {

/// What each operation did between two looks.
std::map<std::string, operation_interval> traffic_between(const totals_by_series& then,
                                                          const totals_by_series& now) {
  std::map<std::string, operation_interval> moved;
  for (const auto& [series, totals] : now) {
    const auto found = then.find(series);
    const series_totals before = found == then.end() ? series_totals{} : found->second;
    const std::uint64_t requests = totals.requests - before.requests;
    if (requests == 0 && totals.bytes == before.bytes) {
      continue;
    }
    auto& traffic = moved[series.first];
    traffic.requests += requests;
    traffic.errors += is_error_class(series.second) ? requests : 0;
    traffic.retries += totals.retries - before.retries;
    traffic.bytes += totals.bytes - before.bytes;
    traffic.latency = latency_histogram::counts_added(
        traffic.latency, latency_histogram::counts_between(totals.duration, before.duration));
    traffic.ttfb = latency_histogram::counts_added(
        traffic.ttfb, latency_histogram::counts_between(totals.ttfb, before.ttfb));
  }
  return moved;
}

} // namespace

timeline_recorder::timeline_recorder(std::shared_ptr<const traffic_metrics> traffic,
                                     std::optional<store_probe> store,
                                     std::shared_ptr<timeline> into)
    : traffic_(std::move(traffic)), store_(std::move(store)), into_(std::move(into)) {}

timeline_recorder::~timeline_recorder() {
  {
    std::lock_guard lock(stop_mutex_);
    stop_ = true;
  }
  stop_signal_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
}

void timeline_recorder::look(double at) {
  auto totals = totals_of(*traffic_);
  std::optional<store_reading> reading;
  std::string store_error;
  if (store_) {
    reading = store_->read(store_error);
  }
  if (last_at_ && at > *last_at_) {
    timeline_interval interval;
    interval.start = *last_at_;
    interval.end = at;
    interval.operations = traffic_between(last_totals_, totals);
    if (reading) {
      store_interval store{reading->memory_bytes, reading->anon_bytes, reading->threads,
                           reading->cpu_seconds, 0};
      if (last_store_) {
        store.cpu_percent =
            (reading->cpu_seconds - last_store_->cpu_seconds) / (at - *last_at_) * 100;
      }
      interval.store = store;
    }
    interval.store_error = store_error;
    into_->add(std::move(interval));
  }
  last_at_ = at;
  last_totals_ = std::move(totals);
  if (reading) {
    last_store_ = reading;
  }
}

void timeline_recorder::start() {
  look(traffic_->seconds_running());
  thread_ = std::thread([this] { look_until_stopped(); });
}

void timeline_recorder::look_until_stopped() {
  const auto step = std::chrono::duration<double>(into_->interval_seconds());
  auto next = std::chrono::steady_clock::now();
  std::unique_lock lock(stop_mutex_);
  for (;;) {
    next += std::chrono::duration_cast<std::chrono::steady_clock::duration>(step);
    if (stop_signal_.wait_until(lock, next, [this] { return stop_; })) {
      return;
    }
    lock.unlock();
    look(traffic_->seconds_running());
    lock.lock();
  }
}

void timeline_recorder::finish() {
  {
    std::lock_guard lock(stop_mutex_);
    stop_ = true;
  }
  stop_signal_.notify_all();
  if (thread_.joinable()) {
    thread_.join();
  }
  look(traffic_->seconds_running());
}

} // namespace s3fault::metrics
