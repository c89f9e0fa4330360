#include "faults/rule_store.hpp"

#include <algorithm>

namespace s3fault::faults {

rule_store::rule_store(std::uint64_t seed, clock::time_point started,
                       std::function<clock::time_point()> now)
    : seed_(seed), started_(started), now_(std::move(now)),
      current_(std::make_shared<const rule_set>(std::vector<rule>{}, seed, started)) {}

void rule_store::replace_all(std::vector<rule> rules, std::optional<std::uint64_t> seed) {
  std::lock_guard lock(change_mutex_);
  if (seed) {
    seed_ = *seed;
  }
  publish(std::move(rules));
}

void rule_store::note_reload(reload_notice notice) {
  last_reload_.store(std::make_shared<const reload_notice>(std::move(notice)));
}

rule_store::change_error rule_store::add(std::vector<rule> rules, std::string& taken_name,
                                         std::optional<std::uint64_t> seed) {
  std::lock_guard lock(change_mutex_);
  if (seed && *seed != seed_) {
    return change_error::seed_differs;
  }
  auto next = current_.load()->rules();
  for (const auto& r : rules) {
    for (const auto& existing : next) {
      if (existing.name == r.name) {
        taken_name = r.name;
        return change_error::name_taken;
      }
    }
  }
  next.insert(next.end(), std::make_move_iterator(rules.begin()),
              std::make_move_iterator(rules.end()));
  publish(std::move(next));
  return change_error::none;
}

rule_store::change_error rule_store::remove(std::string_view name) {
  return change_named(
      name, [](std::vector<rule>& rules, std::vector<rule>::iterator it) { rules.erase(it); });
}

rule_store::change_error rule_store::replace_one(std::string_view name, rule replacement) {
  return change_named(name, [&](std::vector<rule>&, std::vector<rule>::iterator it) {
    *it = std::move(replacement);
  });
}

rule_store::change_error rule_store::set_enabled(std::string_view name, bool enabled) {
  return change_named(name, [&](std::vector<rule>&, std::vector<rule>::iterator it) {
    it->enabled = enabled; // a copy of the current rule: it keeps its counters
    it->definition["enabled"] = enabled;
  });
}

rule_store::change_error rule_store::change_named(
    std::string_view name,
    const std::function<void(std::vector<rule>&, std::vector<rule>::iterator)>& change) {
  std::lock_guard lock(change_mutex_);
  auto next = current_.load()->rules();
  const auto it =
      std::find_if(next.begin(), next.end(), [&](const rule& r) { return r.name == name; });
  if (it == next.end()) {
    return change_error::no_such_rule;
  }
  change(next, it);
  publish(std::move(next));
  return change_error::none;
}

void rule_store::publish(std::vector<rule> rules) {
  const auto previous = current_.load();
  const clock::time_point now = now_();
  for (auto& r : rules) {
    const auto& old_rules = previous->rules();
    const auto same = std::find_if(old_rules.begin(), old_rules.end(), [&](const rule& old) {
      return old.name == r.name && old.definition == r.definition;
    });
    if (same != old_rules.end()) {
      r.state = same->state;
      r.installed = same->installed;
    } else if (!r.installed) {
      // New or changed. A copy of a current rule (enable, disable) already carries its time.
      r.installed = now;
    }
  }
  // Each snapshot gets its own engine seeded from the store's seed, so a given seed and the
  // same sequence of changes and traffic make the same decisions.
  current_.store(std::make_shared<const rule_set>(std::move(rules), seed_, started_));
  version_.fetch_add(1, std::memory_order_release);
}

} // namespace s3fault::faults
