#include "metrics/store_sampler.hpp"

#include <algorithm>

namespace s3fault::metrics {

store_sampler::store_sampler(store_probe probe, std::chrono::milliseconds interval)
    : probe_(std::move(probe)), interval_(interval) {
  usage_.figures = probe_.figures();
  take_sample();
  thread_ = std::thread([this] { sample_until_stopped(); });
}

store_sampler::~store_sampler() {
  stop_ = true;
  if (thread_.joinable()) {
    thread_.join();
  }
}

void store_sampler::sample_until_stopped() {
  while (!stop_) {
    // Sleep in short steps so finish() does not wait a whole interval.
    const auto wake = std::chrono::steady_clock::now() + interval_;
    while (!stop_ && std::chrono::steady_clock::now() < wake) {
      std::this_thread::sleep_for(std::min(interval_, std::chrono::milliseconds(10)));
    }
    if (!stop_) {
      take_sample();
    }
  }
}

void store_sampler::take_sample() {
  std::string error;
  const auto reading = probe_.read(error);
  const auto now = std::chrono::steady_clock::now();
  if (!reading) {
    usage_.error = error;
    return;
  }
  ++usage_.samples;
  constexpr double mib = 1024.0 * 1024.0;
  const double rss_mib = static_cast<double>(reading->memory_bytes) / mib;
  usage_.rss_max_mib = std::max(usage_.rss_max_mib, rss_mib);
  usage_.anon_max_mib =
      std::max(usage_.anon_max_mib, static_cast<double>(reading->anon_bytes) / mib);
  usage_.threads_max = std::max(usage_.threads_max, static_cast<double>(reading->threads));
  rss_sum_ += rss_mib;
  threads_sum_ += static_cast<double>(reading->threads);
  if (previous_) {
    const double wall = std::chrono::duration<double>(now - previous_at_).count();
    if (wall > 0) {
      usage_.cpu_max_percent = std::max(
          usage_.cpu_max_percent, (reading->cpu_seconds - previous_->cpu_seconds) / wall * 100.0);
    }
  } else {
    first_ = reading;
    first_at_ = now;
  }
  previous_ = reading;
  previous_at_ = now;
}

store_usage store_sampler::finish() {
  stop_ = true;
  if (thread_.joinable()) {
    thread_.join();
  }
  take_sample();
  if (usage_.samples > 0) {
    usage_.rss_mean_mib = rss_sum_ / static_cast<double>(usage_.samples);
    usage_.threads_mean = threads_sum_ / static_cast<double>(usage_.samples);
  }
  if (first_ && previous_) {
    const double wall = std::chrono::duration<double>(previous_at_ - first_at_).count();
    if (wall > 0) {
      usage_.cpu_mean_percent = (previous_->cpu_seconds - first_->cpu_seconds) / wall * 100.0;
    }
  }
  return usage_;
}

} // namespace s3fault::metrics
