#include "cli/timeline_options.hpp"

#include "cli/duration.hpp"
#include "metrics/timeline_html.hpp"
#include "metrics/timeline_report.hpp"
#include "runtime/atomic_file.hpp"

#include <stdexcept>

namespace s3fault::cli {
namespace {

CLI::Validator duration_check() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        return parse_duration(text) ? "" : "'" + text + "' is not a duration like 1s, 10s, 1m";
      },
      "DURATION");
}

double seconds_of(const std::string& interval) {
  return std::chrono::duration<double>(*parse_duration(interval)).count();
}

} // namespace

void declare_timeline_options(CLI::App& command, timeline_options& o, bool for_proxy) {
  command
      .add_option("--timeline", o.interval,
                  "Record a timeline of the traffic, one interval of this length at a time "
                  "(e.g. 1s, 10s): per S3 operation requests, errors, retries, MiB/s, latency "
                  "and TTFB p50/p90/p99, and the store's threads, memory and CPU; at the end the "
                  "drift of the first sixth against the last is judged. At most 32 MiB whatever "
                  "the run's length (older intervals merge two by two). See docs/timeline.md")
      ->check(duration_check());
  command.add_option("--timeline-csv", o.csv,
                     "Write the timeline as CSV at the end: a row per interval and operation");
  if (!for_proxy) {
    return;
  }
  command.add_option("--report-html", o.html,
                     "Write the timeline as one self-contained HTML page at the end: the drift "
                     "verdict, then charts of latency, throughput and the store over the run");
  command.add_option("--store-pid", o.store_pids,
                     "Sample this process of the store in the timeline: memory (VmRSS, RssAnon), "
                     "threads, CPU (repeatable; the figures are summed)");
  command.add_option("--store-cgroup", o.store_cgroup,
                     "Sample the store's cgroup in the timeline: a cgroup v2 directory, a v1 "
                     "one (/sys/fs/cgroup/memory/...), or a path as /proc/PID/cgroup writes it "
                     "(/docker/ID); see docs/store-sampling.md");
  command
      .add_option("--alpha", o.alpha,
                  "False-alarm rate of each drift figure: the chance that a figure which did not "
                  "drift is flagged")
      ->check(CLI::Range(0.0001, 0.5))
      ->capture_default_str();
  command
      .add_option("--min-change", o.min_change_percent,
                  "Percent a drift figure must change by, at least, to be flagged")
      ->check(CLI::Range(0.0, 1000.0))
      ->capture_default_str();
}

std::vector<std::string> timeline_usage_mistakes(const timeline_options& o) {
  std::vector<std::string> mistakes;
  if (o.interval.empty()) {
    for (const auto& [given, name] :
         {std::pair{!o.csv.empty(), "--timeline-csv"}, std::pair{!o.html.empty(), "--report-html"},
          std::pair{!o.store_pids.empty(), "--store-pid"},
          std::pair{!o.store_cgroup.empty(), "--store-cgroup"}}) {
      if (given) {
        mistakes.push_back(std::string(name) + " needs --timeline INTERVAL (e.g. --timeline 10s)");
      }
    }
  } else if (seconds_of(o.interval) < 0.1) {
    mistakes.push_back("--timeline " + o.interval + ": an interval of at least 100ms is needed");
  }
  if (!o.store_pids.empty() && !o.store_cgroup.empty()) {
    mistakes.emplace_back("--store-pid and --store-cgroup: give one of them (the cgroup holds "
                          "the store's processes)");
  }
  return mistakes;
}

std::optional<metrics::store_probe> store_probe_of(const timeline_options& o) {
  if (!o.store_cgroup.empty()) {
    return metrics::store_probe::of_cgroup(o.store_cgroup);
  }
  if (!o.store_pids.empty()) {
    return metrics::store_probe::of_processes(o.store_pids);
  }
  return std::nullopt;
}

timeline_run::timeline_run(const timeline_options& o,
                           std::shared_ptr<const metrics::traffic_metrics> traffic,
                           std::optional<metrics::store_probe> store)
    : options_(o), store_description_(store ? store->describe() : ""),
      recorder_(std::move(traffic), std::move(store),
                std::make_shared<metrics::timeline>(seconds_of(o.interval))) {}

metrics::drift_rules timeline_run::rules() const {
  metrics::drift_rules rules;
  rules.judging.alpha = options_.alpha;
  rules.judging.min_change_percent = options_.min_change_percent;
  return rules;
}

nlohmann::json timeline_run::json_now(bool with_buckets) const {
  const auto record = metrics::record_of(*recorder_.recorded(), store_description_);
  return {{"timeline", metrics::timeline_json(record, with_buckets)},
          {"drift", metrics::drift_json(metrics::judge_drift(record.intervals, rules()), rules())}};
}

nlohmann::json timeline_run::finish(std::ostream& out, const std::string& title,
                                    std::string& error) {
  recorder_.finish();
  const auto record = metrics::record_of(*recorder_.recorded(), store_description_);
  const auto drift = metrics::judge_drift(record.intervals, rules());
  out << metrics::drift_text(drift, rules(), record) << std::flush;
  if (!options_.csv.empty()) {
    runtime::write_file_atomically(options_.csv, metrics::timeline_csv(record), error);
  }
  if (!options_.html.empty() && error.empty()) {
    runtime::write_file_atomically(options_.html,
                                   metrics::timeline_html(record, drift, rules(), title), error);
  }
  return {{"timeline", metrics::timeline_json(record)},
          {"drift", metrics::drift_json(drift, rules())}};
}

} // namespace s3fault::cli
