#pragma once
// Samples a store over a span, such as a bench cell's run (--store-pid, --store-cgroup): its
// memory, anonymous memory, threads and CPU time (store_probe.hpp), every 100 ms on a thread of
// its own, as the max and mean over the samples.
#include "metrics/store_probe.hpp"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <optional>
#include <string>
#include <thread>

namespace s3fault::metrics {

/// Max and mean over the samples of one span. Figures the probe does not give (`figures`) stay
/// 0.
struct store_usage {
  double rss_max_mib = 0; // store_reading::memory_bytes: VmRSS for PIDs, charged for a cgroup
  double rss_mean_mib = 0;
  double anon_max_mib = 0; // store_reading::anon_bytes
  double threads_max = 0;
  double threads_mean = 0;
  double cpu_max_percent = 0;  // of one core, over one sampling interval
  double cpu_mean_percent = 0; // CPU time over the span's wall time
  std::size_t samples = 0;
  readable_figures figures;
  std::string error; // set when the store could not be read at some point
};

/// Reads `probe` at once, then every `interval` until finish().
class store_sampler {
public:
  explicit store_sampler(store_probe probe,
                         std::chrono::milliseconds interval = std::chrono::milliseconds(100));
  ~store_sampler();
  store_sampler(const store_sampler&) = delete;
  store_sampler& operator=(const store_sampler&) = delete;

  /// Stops sampling (after one last reading) and returns the figures.
  store_usage finish();

private:
  void sample_until_stopped();
  void take_sample();

  store_probe probe_;
  std::chrono::milliseconds interval_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::optional<store_reading> first_;
  std::optional<store_reading> previous_;
  std::chrono::steady_clock::time_point first_at_{};
  std::chrono::steady_clock::time_point previous_at_{};
  double rss_sum_ = 0;
  double threads_sum_ = 0;
  store_usage usage_;
};

} // namespace s3fault::metrics
