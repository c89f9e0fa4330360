#pragma once
// A store profile's rules that edit signed parts of requests (strip-query partNumber,
// head-as-get, resign) need the store's keys, --resign-access-key and --resign-secret-key:
// without them the proxy sends those edits only on unsigned requests, so a signing client meets
// the store half imitated (an audit through rgw-16.2 without keys: 84 passed, 9 failed instead
// of RGW's 62 and 29). The proxy refuses that unless --partial-profile asks for it, and marks a
// partial profile in GET /stats and the --report file.
#include "faults/config/rule_parser.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace s3fault::cli {

/// A profile's rule the proxy does not apply to signed requests: it edits them and the proxy
/// has no keys to sign them again.
struct unapplied_profile_rule {
  std::string profile; // as named by --profile
  std::string rule;
  std::string action; // the rule's first action that edits the request
};

/// The profiles' rules that need the keys, in rule order; none when `have_keys`.
std::vector<unapplied_profile_rule>
profile_rules_needing_keys(const faults::config::rule_build& rules, bool have_keys);

/// Why the proxy refuses to start, one line per profile: "--profile NAME: rules A (ACTION), ...
/// edit signed requests and need --resign-access-key and --resign-secret-key ...".
std::vector<std::string> keys_needed_lines(const std::vector<unapplied_profile_rule>& unapplied);

/// What --partial-profile leaves out, one line per profile, for the start-up log.
std::vector<std::string>
partial_profile_lines(const std::vector<unapplied_profile_rule>& unapplied);

/// The "profile" block of GET /stats and --report: {"profiles": [NAME, ...], "partial": bool,
/// "not_applied": [{"profile", "rule", "action"}, ...]}; null when no --profile was given.
nlohmann::json profile_block(const faults::config::rule_build& rules,
                             const std::vector<unapplied_profile_rule>& unapplied);

} // namespace s3fault::cli
