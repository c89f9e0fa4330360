#pragma once
// A rule = name + match + schedule + actions (Envoy's fault filter config, toxiproxy's toxics).
// Rules are validated once when built (faults/rule_parser.hpp) and immutable afterwards; the
// only mutable part is the rule's counters, kept apart in rule_state.
#include "faults/fault_action.hpp"
#include "faults/header_regex.hpp"
#include "faults/s3_request.hpp"

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
};

/// Counters of a rule, shared across rule-set snapshots while the rule is unchanged.
struct rule_state {
  // Written only with `schedule_mutex` held; atomic so that the admin API reads them without it.
  std::atomic<std::uint64_t> matched{0};
  std::atomic<std::uint64_t> injected{0};
  std::atomic<std::uint64_t> skipped{0};
  /// Held across one whole schedule decision (count, check, dice, count the injection), so that
  /// exchanges decided on several threads at once still see each match number exactly once.
  std::mutex schedule_mutex;
  // Per-key counts for `per_key` schedules: key -> (matches, injections). Under schedule_mutex.
  std::map<std::string, std::pair<std::uint64_t, std::uint64_t>> per_key;
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
/// fnmatch-style glob: `*` any run, `?` one character, `[abc]`/`[a-z]` a set.
bool glob_matches(std::string_view pattern, std::string_view text);

} // namespace s3fault::faults
