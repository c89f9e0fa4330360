#pragma once
// Fills a timeline from a running traffic_metrics: every interval it takes the totals of each
// (operation, status class), subtracts the previous look's, and reads the store (if one is
// watched). The proxy and the bench both record this way, from their own traffic_metrics.
#include "metrics/store_probe.hpp"
#include "metrics/timeline.hpp"
#include "metrics/traffic_history.hpp"
#include "metrics/traffic_metrics.hpp"

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace s3fault::metrics {

class timeline_recorder {
public:
  timeline_recorder(std::shared_ptr<const traffic_metrics> traffic,
                    std::optional<store_probe> store, std::shared_ptr<timeline> into);
  ~timeline_recorder(); // stops the thread, if started, without a last look
  timeline_recorder(const timeline_recorder&) = delete;
  timeline_recorder& operator=(const timeline_recorder&) = delete;

  /// One look at `at` seconds since the traffic's start: what moved since the last look (or
  /// since `at` of the first) becomes an interval. Tests call it with a clock of their own.
  void look(double at);

  /// Looks every timeline interval on a thread of its own, from now.
  void start();
  /// Stops the thread and takes a last look, so that the run's tail is in the timeline.
  void finish();

  const std::shared_ptr<timeline>& recorded() const { return into_; }

private:
  void look_until_stopped();

  std::shared_ptr<const traffic_metrics> traffic_;
  std::optional<store_probe> store_;
  std::shared_ptr<timeline> into_;
  std::optional<double> last_at_;
  totals_by_series last_totals_;
  std::optional<store_reading> last_store_;
  std::mutex stop_mutex_;
  std::condition_variable stop_signal_;
  bool stop_ = false;
  std::thread thread_;
};

} // namespace s3fault::metrics
