#pragma once
// --timeline for the bench: every measured operation is recorded into one traffic_metrics, under
// its workload's name ("get"), or "STORE get" with several stores, and a timeline_recorder
// turns them into intervals, with the readings of the first store that has --store-pid or
// --store-cgroup. The same timeline, drift and reports as the proxy's (metrics/timeline*.hpp).
#include "conformance/bench/bench_settings.hpp"
#include "metrics/timeline_recorder.hpp"
#include "metrics/timeline_report.hpp"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace s3fault::bench {

/// The drift is judged with the bench's --alpha and --min-change.
metrics::drift_rules drift_rules_of(const bench_settings& settings);

class bench_timeline {
public:
  /// Names an operation for every (store, operation of `cells`); settings.timeline must be set.
  bench_timeline(const bench_settings& settings, const std::vector<cell>& cells);

  void start() { recorder_.start(); }
  /// Where a run of `op` on store `store` (its index in settings.stores) is recorded.
  metrics::traffic_metrics* traffic() { return traffic_.get(); }
  int operation_index(std::size_t store, operation op) const;
  /// Stops recording; the timeline as recorded.
  metrics::timeline_record finish();

private:
  using sampled = std::pair<std::optional<metrics::store_probe>, std::string>;
  bench_timeline(const bench_settings& settings, const std::vector<cell>& cells, sampled store);

  std::vector<operation> operations_; // of every store, in this order (operation_index)
  std::shared_ptr<metrics::traffic_metrics> traffic_;
  std::string store_description_;
  metrics::timeline_recorder recorder_;
};

} // namespace s3fault::bench
