#pragma once
// Samples the store's processes while a cell runs (--store-pid): resident memory, threads and
// CPU time from /proc/PID/status and /proc/PID/stat, summed over the processes given, every
// 100 ms on a thread of its own.
#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace s3fault::bench {

/// One reading of the processes, summed.
struct process_reading {
  std::uint64_t rss_bytes = 0;
  std::uint64_t threads = 0;
  double cpu_seconds = 0; // user + system since each process started
};

/// Reads /proc for each PID; nullopt with `error` naming the PID when one cannot be read (it has
/// ended, or /proc is not there).
std::optional<process_reading> read_processes(const std::vector<int>& pids, std::string& error);

/// Max and mean over one cell's samples.
struct store_usage {
  double rss_max_mib = 0;
  double rss_mean_mib = 0;
  double threads_max = 0;
  double threads_mean = 0;
  double cpu_max_percent = 0;  // of one core, over one sampling interval
  double cpu_mean_percent = 0; // CPU time over the cell's wall time
  std::size_t samples = 0;
  std::string error; // set when a process could not be read at some point
};

class store_sampler {
public:
  explicit store_sampler(std::vector<int> pids,
                         std::chrono::milliseconds interval = std::chrono::milliseconds(100));
  ~store_sampler();
  store_sampler(const store_sampler&) = delete;
  store_sampler& operator=(const store_sampler&) = delete;

  /// Stops sampling (after one last reading) and returns the figures.
  store_usage finish();

private:
  void sample_until_stopped();
  void take_sample();

  std::vector<int> pids_;
  std::chrono::milliseconds interval_;
  std::atomic<bool> stop_{false};
  std::thread thread_;
  std::optional<process_reading> first_;
  std::optional<process_reading> previous_;
  std::chrono::steady_clock::time_point first_at_{};
  std::chrono::steady_clock::time_point previous_at_{};
  double rss_sum_ = 0;
  double threads_sum_ = 0;
  store_usage usage_;
};

} // namespace s3fault::bench
