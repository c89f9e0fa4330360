#pragma once
// A rule = name + match + schedule + actions (Envoy's fault filter config, toxiproxy's toxics).
// Rules are validated once when built (faults/rule_parser.hpp) and immutable afterwards; the
// only mutable part is the rule's counters, kept apart in rule_state.
#include "faults/fault_action.hpp"
#include "faults/header_regex.hpp"
#include "faults/s3_request.hpp"

#include <algorithm>
#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::faults {

/// Looks up a request header by name (case-insensitive); nullopt when absent.
using header_lookup = std::function<std::optional<std::string_view>(std::string_view name)>;

struct query_condition {
  std::string name;
  std::optional<std::string> value; // nullopt: present with any value
};

struct header_condition {
  std::string name;
  std::string pattern;                       // empty: present with any value
  std::shared_ptr<const header_regex> regex; // compiled `pattern`, searched in the value
};

struct match_spec {
  std::vector<s3_operation> operations; // empty: any
  std::vector<std::string> methods;     // empty: any (upper case)
  std::string bucket = "*";             // glob (* ? [..])
  std::string key = "*";                // glob
  std::vector<query_condition> query;   // all must hold
  std::vector<header_condition> headers;
  std::vector<unsigned> statuses; // response statuses; empty: any (and decided early)
  std::optional<std::pair<std::uint32_t, std::uint32_t>> part_numbers; // inclusive range
  /// A byte offset the request asks for (request_asks_for_byte): the one range of a parallel
  /// reader that holds it, whichever order its ranges come in.
  std::optional<std::uint64_t> covers;
};

/// Which token bucket of a `rate` schedule a request draws from.
enum class rate_scope {
  rule,   // one bucket for the rule
  prefix, // one per bucket + key up to and including its last '/' (S3's partitions)
  key,    // one per bucket/key
};

struct schedule_spec {
  double probability = 1.0;                       // of injecting, once the counts allow it
  std::optional<std::uint64_t> first;             // only the first N eligible matches
  std::uint64_t skip = 0;                         // leave the first N matches alone
  std::optional<std::uint64_t> every;             // only every Nth eligible match
  std::optional<std::uint64_t> times;             // at most N injections in all (or per key)
  bool per_key = false;                           // count per bucket/key instead of per rule
  std::optional<std::chrono::milliseconds> after; // active from this long after installation
  std::optional<std::chrono::milliseconds> until; // ... until this long after installation

  // Load-shaped conditions (faults/load_schedule.hpp): with one of them, the rule may inject
  // only into an exchange that finds the load over its limit.
  /// Fire while this many exchanges that the rule let through are still in flight.
  std::optional<std::uint64_t> in_flight_over;
  /// Token bucket: a match takes a token, and finds the load over the limit when there is none.
  std::optional<double> rate;  // tokens refilled per second
  std::optional<double> burst; // bucket size; max(1, rate) when not given
  rate_scope rate_per = rate_scope::rule;
  /// Only requests declaring a body of at least this many bytes are the rule's matches.
  std::optional<std::uint64_t> min_body;

  bool load_shaped() const { return in_flight_over.has_value() || rate.has_value(); }
  double bucket_size() const { return burst.value_or(rate ? std::max(1.0, *rate) : 1.0); }
};

/// A token bucket kept as the time at which it is full again (the GCRA form of a bucket): one
/// time point, exact in whole nanoseconds, nothing to refill. A bucket whose time has come is
/// full, just like one never used.
struct token_bucket {
  clock::time_point full_at{};
};

/// Counters of a rule, shared across rule-set snapshots while the rule is unchanged.
struct rule_state {
  // Written only with `schedule_mutex` held; atomic so that the admin API reads them without it.
  std::atomic<std::uint64_t> matched{0};
  std::atomic<std::uint64_t> injected{0};
  std::atomic<std::uint64_t> skipped{0};
  // Load-shaped schedules. `in_flight` is raised under schedule_mutex when an exchange takes a
  // slot and lowered without it when the slot is released (admission_slot): an atomic
  // decrement that a decision under the mutex sees either before or after, both exact.
  std::atomic<std::uint64_t> in_flight{0};      // slots held now
  std::atomic<std::uint64_t> peak_in_flight{0}; // the most ever held at once
  std::atomic<std::uint64_t> refusals{0};       // injections because the load was over its limit
  /// Held across one whole schedule decision (count, check, dice, count the injection), so that
  /// exchanges decided on several threads at once still see each match number exactly once.
  std::mutex schedule_mutex;
  // Per-key counts for `per_key` schedules: key -> (matches, injections). Under schedule_mutex.
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> per_key;
  // Token buckets of a `rate` schedule by rate_bucket_key ("" for the whole rule). Under
  // schedule_mutex; full buckets are dropped when there are many (a full one is a fresh one).
  std::map<std::string, token_bucket, std::less<>> buckets;
  static constexpr std::size_t buckets_kept = 4096; // kept without a sweep
  std::size_t buckets_prune_at = buckets_kept;      // sweep when there are more; under the mutex
};

struct rule {
  std::string name;
  match_spec match;
  schedule_spec schedule;
  std::vector<std::shared_ptr<const fault_action>> actions;
  bool enabled = true;
  std::shared_ptr<rule_state> state = std::make_shared<rule_state>();
  /// When the rule came into force, for `after`/`until`. Set by rule_store::publish and kept,
  /// like `state`, while the definition is unchanged (enable/disable keep it too); nullopt for a
  /// rule not yet installed.
  std::optional<clock::time_point> installed;
  /// The definition as JSON (without counters), for the admin API and change detection.
  nlohmann::json definition;
};

/// True when the request side of `match` holds (statuses are checked separately).
bool request_matches(const match_spec& match, const s3_request& request, std::string_view method,
                     const header_lookup& headers);
/// Whether the request asks for the object byte at `offset`: its Range holds it ("bytes=A-B" or
/// "bytes=A-"), or it has no Range S3 would honour and no partNumber, so it asks for the whole
/// object. A suffix range ("bytes=-N") and a part read never do: which bytes they get depends on
/// the object's size or its parts, which the request does not show.
bool request_asks_for_byte(const s3_request& request, std::uint64_t offset);
/// fnmatch-style glob: `*` any run, `?` one character, `[abc]`/`[a-z]` a set.
bool glob_matches(std::string_view pattern, std::string_view text);

} // namespace s3fault::faults
