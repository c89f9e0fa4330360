#include "conformance/bench/store_sampler.hpp"

#include "text/text.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace s3fault::bench {
namespace {

/// VmRSS (kB) and Threads from /proc/PID/status.
bool read_status(int pid, process_reading& into) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  if (!status) {
    return false;
  }
  std::string line;
  bool rss = false;
  bool threads = false;
  while (std::getline(status, line)) {
    std::istringstream fields(line);
    std::string name;
    std::uint64_t value = 0;
    fields >> name >> value;
    if (name == "VmRSS:") {
      into.rss_bytes += value * 1024;
      rss = true;
    } else if (name == "Threads:") {
      into.threads += value;
      threads = true;
    }
  }
  return rss && threads;
}

/// utime + stime (fields 14 and 15) from /proc/PID/stat, in seconds.
bool read_cpu(int pid, process_reading& into) {
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string text;
  if (!stat || !std::getline(stat, text)) {
    return false;
  }
  // The command name (field 2) may hold spaces and parentheses: fields restart after the last
  // ')'.
  const auto close = text.rfind(')');
  if (close == std::string::npos) {
    return false;
  }
  std::istringstream fields(text.substr(close + 2));
  std::string field;
  std::optional<std::uint64_t> utime = 0;
  std::optional<std::uint64_t> stime = 0;
  for (int index = 3; index <= 15 && fields >> field; ++index) {
    if (index == 14) {
      utime = text::parse_whole_number(field);
    } else if (index == 15) {
      stime = text::parse_whole_number(field);
    }
  }
  if (!utime || !stime) {
    return false;
  }
  into.cpu_seconds +=
      static_cast<double>(*utime + *stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
  return true;
}

} // namespace

std::optional<process_reading> read_processes(const std::vector<int>& pids, std::string& error) {
  process_reading reading;
  for (const int pid : pids) {
    if (!read_status(pid, reading) || !read_cpu(pid, reading)) {
      error = "cannot read /proc/" + std::to_string(pid) + " (has the process ended?)";
      return std::nullopt;
    }
  }
  return reading;
}

store_sampler::store_sampler(std::vector<int> pids, std::chrono::milliseconds interval)
    : pids_(std::move(pids)), interval_(interval) {
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
  const auto reading = read_processes(pids_, error);
  const auto now = std::chrono::steady_clock::now();
  if (!reading) {
    usage_.error = error;
    return;
  }
  ++usage_.samples;
  const double rss_mib = static_cast<double>(reading->rss_bytes) / (1024.0 * 1024.0);
  usage_.rss_max_mib = std::max(usage_.rss_max_mib, rss_mib);
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

} // namespace s3fault::bench
