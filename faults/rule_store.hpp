#pragma once
// The live rules: an immutable rule_set snapshot that exchanges read once each, and the
// operations that replace it (start-up configuration, the admin API). A change builds a whole
// new snapshot and swaps it in atomically; an exchange keeps the snapshot it started with.
// A rule whose definition is unchanged keeps its counters and its install time across
// snapshots; a new or changed rule is installed at the store's clock's time.
#include "faults/reload_merge.hpp"
#include "faults/rule_set.hpp"

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

namespace s3fault::faults {

class rule_store {
public:
  /// `now` is the clock that install times are read from (tests pass their own).
  rule_store(
      std::uint64_t seed, clock::time_point started,
      std::function<clock::time_point()> now = [] { return clock::now(); });

  /// The snapshot in force; never null (an empty rule set when there are no rules).
  std::shared_ptr<const rule_set> current() const { return current_.load(); }
  /// Counts the snapshots published: a reader that keeps a snapshot of its own reloads it only
  /// when this changed (read it before current()).
  std::uint64_t version() const { return version_.load(std::memory_order_acquire); }

  /// Replaces every rule. Rules equal (name and definition) to a current one keep its counters.
  /// A `seed` reseeds the engine from this snapshot on (it belongs to the whole rule set, so only
  /// a change of every rule may bring one); without one the seed in force stays.
  void replace_all(std::vector<rule> rules, std::optional<std::uint64_t> seed = std::nullopt);

  /// Why a change was refused, for the admin API to map to an HTTP status.
  enum class change_error { none, name_taken, no_such_rule, seed_differs };

  /// Adds rules after the current ones; refused whole when a name is already taken, or when
  /// `seed` is given and differs from the seed in force (adding cannot reseed the rules already
  /// there).
  change_error add(std::vector<rule> rules, std::string& taken_name,
                   std::optional<std::uint64_t> seed = std::nullopt);
  change_error remove(std::string_view name);
  /// Puts `replacement` in the place of the rule called `name` (whatever it is called itself).
  /// Unchanged (the same name and definition), it keeps the old rule's counters; changed, it
  /// starts anew, as after a reload.
  change_error replace_one(std::string_view name, rule replacement);
  change_error set_enabled(std::string_view name, bool enabled);

  /// The seed in force: the current snapshot's.
  std::uint64_t seed() const { return current()->seed(); }

  /// Remembers what the last reload did with the admin API's changes (GET /rules shows it).
  void note_reload(reload_notice notice);
  /// The last reload's notice; null before any reload.
  std::shared_ptr<const reload_notice> last_reload() const { return last_reload_.load(); }

private:
  /// Applies `change` to a copy of the rules at the rule called `name` and publishes the
  /// result; no_such_rule (and nothing published) when there is none.
  change_error
  change_named(std::string_view name,
               const std::function<void(std::vector<rule>&, std::vector<rule>::iterator)>& change);
  /// Builds and publishes a snapshot; call with `change_mutex_` held.
  void publish(std::vector<rule> rules);

  std::uint64_t seed_; // written only with change_mutex_ held
  clock::time_point started_;
  std::function<clock::time_point()> now_;
  std::mutex change_mutex_; // one change at a time; readers never take it
  std::atomic<std::shared_ptr<const rule_set>> current_;
  std::atomic<std::uint64_t> version_{0};
  std::atomic<std::shared_ptr<const reload_notice>> last_reload_;
};

} // namespace s3fault::faults
