#pragma once
// The live rules: an immutable rule_set snapshot that exchanges read once each, and the
// operations that replace it (start-up configuration, the admin API). A change builds a whole
// new snapshot and swaps it in atomically; an exchange keeps the snapshot it started with.
// A rule whose definition is unchanged keeps its counters across snapshots.
#include "faults/rule_set.hpp"

#include <atomic>
#include <memory>
#include <mutex>

namespace s3fault::faults {

class rule_store {
public:
  rule_store(std::uint64_t seed, clock::time_point started);

  /// The snapshot in force; never null (an empty rule set when there are no rules).
  std::shared_ptr<const rule_set> current() const { return current_.load(); }

  /// Replaces every rule. Rules equal (name and definition) to a current one keep its counters.
  void replace_all(std::vector<rule> rules);

  /// Why a change was refused, for the admin API to map to an HTTP status.
  enum class change_error { none, name_taken, no_such_rule };

  /// Adds rules after the current ones; refused whole when a name is already taken.
  change_error add(std::vector<rule> rules, std::string& taken_name);
  change_error remove(std::string_view name);
  change_error set_enabled(std::string_view name, bool enabled);

  std::uint64_t seed() const { return seed_; }

private:
  /// Builds and publishes a snapshot; call with `change_mutex_` held.
  void publish(std::vector<rule> rules);

  std::uint64_t seed_;
  clock::time_point started_;
  std::mutex change_mutex_; // one change at a time; readers never take it
  std::atomic<std::shared_ptr<const rule_set>> current_;
};

} // namespace s3fault::faults
