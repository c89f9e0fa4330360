#include "conformance/bench/bench_timeline.hpp"

#include <algorithm>

namespace s3fault::bench {
namespace {

std::vector<operation> operations_of(const std::vector<cell>& cells) {
  std::vector<operation> out;
  for (const auto& c : cells) {
    if (std::find(out.begin(), out.end(), c.op) == out.end()) {
      out.push_back(c.op);
    }
  }
  return out;
}

std::vector<std::string> names_of(const bench_settings& settings,
                                  const std::vector<operation>& operations) {
  std::vector<std::string> names;
  for (const auto& store : settings.stores) {
    for (const auto op : operations) {
      const std::string name(to_string(op));
      names.push_back(settings.stores.size() > 1 ? store.name + " " + name : name);
    }
  }
  return names;
}

/// The first store with something to sample, and how the report names it.
std::pair<std::optional<metrics::store_probe>, std::string>
sampled_store(const bench_settings& settings) {
  for (const auto& store : settings.stores) {
    if (auto probe = store_probe_of(store)) {
      auto about = probe->describe();
      if (settings.stores.size() > 1) {
        about = store.name + ": " + about;
      }
      return {std::move(probe), std::move(about)};
    }
  }
  return {std::nullopt, ""};
}

} // namespace

metrics::drift_rules drift_rules_of(const bench_settings& settings) {
  metrics::drift_rules rules;
  rules.judging.alpha = settings.judging.alpha;
  rules.judging.power = settings.judging.power;
  rules.judging.min_change_percent = settings.judging.min_change_percent;
  return rules;
}

bench_timeline::bench_timeline(const bench_settings& settings, const std::vector<cell>& cells)
    : bench_timeline(settings, cells, sampled_store(settings)) {}

bench_timeline::bench_timeline(const bench_settings& settings, const std::vector<cell>& cells,
                               sampled store)
    : operations_(operations_of(cells)),
      traffic_(std::make_shared<metrics::traffic_metrics>(names_of(settings, operations_))),
      store_description_(std::move(store.second)),
      recorder_(traffic_, std::move(store.first),
                std::make_shared<metrics::timeline>(
                    std::chrono::duration<double>(*settings.timeline).count())) {}

int bench_timeline::operation_index(std::size_t store, operation op) const {
  const auto found = std::find(operations_.begin(), operations_.end(), op);
  return static_cast<int>(store * operations_.size() +
                          static_cast<std::size_t>(found - operations_.begin()));
}

metrics::timeline_record bench_timeline::finish() {
  recorder_.finish();
  return metrics::record_of(*recorder_.recorded(), store_description_);
}

} // namespace s3fault::bench
