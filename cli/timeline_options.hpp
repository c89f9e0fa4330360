#pragma once
// Watching a run over time, for `proxy` and `bench` alike: --timeline INTERVAL records the
// traffic (and the store, when one is watched) interval by interval; at the end the drift of
// the first sixth against the last is judged and printed, and the timeline goes into the JSON
// report, --timeline-csv and (proxy) --report-html.
#include "metrics/drift.hpp"
#include "metrics/store_probe.hpp"
#include "metrics/timeline_recorder.hpp"
#include "metrics/traffic_metrics.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace s3fault::cli {

struct timeline_options {
  std::string interval; // --timeline DURATION; empty: no timeline
  std::string csv;      // --timeline-csv FILE
  std::string html;     // --report-html FILE (proxy)
  // The store's processes or cgroup (proxy; the bench has its own per --store).
  std::vector<int> store_pids;
  std::string store_cgroup;
  double alpha = 0.01;
  double min_change_percent = 10;
};

/// --timeline and --timeline-csv; with `for_proxy` also --report-html, --store-pid,
/// --store-cgroup, --alpha and --min-change (the bench declares its own).
void declare_timeline_options(CLI::App& command, timeline_options& o, bool for_proxy);

/// What cannot go together: --timeline-csv or --report-html or a store without --timeline, a
/// store given both ways, an --interval under 100 ms.
std::vector<std::string> timeline_usage_mistakes(const timeline_options& o);

/// The store to watch (none when neither --store-pid nor --store-cgroup was given); throws
/// std::invalid_argument, naming the option and why, for a cgroup that is not one.
std::optional<metrics::store_probe> store_probe_of(const timeline_options& o);

/// A timeline being recorded from `traffic`, and what becomes of it at the end.
class timeline_run {
public:
  timeline_run(const timeline_options& o, std::shared_ptr<const metrics::traffic_metrics> traffic,
               std::optional<metrics::store_probe> store);

  void start() { recorder_.start(); }

  /// The timeline and its drift so far, as GET /timeline answers: {"timeline", "drift"}.
  nlohmann::json json_now(bool with_buckets) const;

  /// Stops recording, prints the drift to `out`, writes --timeline-csv and --report-html
  /// (`title` heads the page); returns {"timeline", "drift"} for the JSON report. A file that
  /// cannot be written is named in `error`.
  nlohmann::json finish(std::ostream& out, const std::string& title, std::string& error);

private:
  metrics::drift_rules rules() const;

  timeline_options options_;
  std::string store_description_;
  metrics::timeline_recorder recorder_;
};

} // namespace s3fault::cli
