#include "faults/rule_store.hpp"

namespace s3fault::faults {

rule_store::rule_store(std::uint64_t seed, clock::time_point started)
    : seed_(seed), started_(started),
      current_(std::make_shared<const rule_set>(std::vector<rule>{}, seed, started)) {}

void rule_store::replace_all(std::vector<rule> rules) {
  std::lock_guard lock(change_mutex_);
  publish(std::move(rules));
}

void rule_store::publish(std::vector<rule> rules) {
  const auto previous = current_.load();
  for (auto& r : rules) {
    for (const auto& old : previous->rules()) {
      if (old.name == r.name && old.definition == r.definition) {
        r.state = old.state;
      }
    }
  }
  // Each snapshot gets its own engine seeded from the store's seed, so a given seed and the
  // same sequence of changes and traffic make the same decisions.
  current_.store(std::make_shared<const rule_set>(std::move(rules), seed_, started_));
}

} // namespace s3fault::faults
