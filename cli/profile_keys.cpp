#include "cli/profile_keys.hpp"

#include <algorithm>

namespace s3fault::cli {
namespace {

/// The first action of `r` that edits the request (its signed parts, for a signed request).
const faults::fault_action* request_edit_of(const faults::rule& r) {
  for (const auto& action : r.actions) {
    if (action->phase() == faults::action_phase::request_head) {
      return action.get();
    }
  }
  return nullptr;
}

/// The rules of one profile, "A (ACTION), B (ACTION)", and how many there are.
std::pair<std::string, std::size_t>
listed_rules(const std::vector<unapplied_profile_rule>& unapplied, const std::string& profile) {
  std::string listed;
  std::size_t count = 0;
  for (const auto& entry : unapplied) {
    if (entry.profile == profile) {
      listed += (listed.empty() ? "" : ", ") + entry.rule + " (" + entry.action + ")";
      ++count;
    }
  }
  return {listed, count};
}

/// The profiles of `unapplied`, each once, in order.
std::vector<std::string> profiles_of(const std::vector<unapplied_profile_rule>& unapplied) {
  std::vector<std::string> profiles;
  for (const auto& entry : unapplied) {
    if (std::find(profiles.begin(), profiles.end(), entry.profile) == profiles.end()) {
      profiles.push_back(entry.profile);
    }
  }
  return profiles;
}

} // namespace

std::vector<unapplied_profile_rule>
profile_rules_needing_keys(const faults::config::rule_build& rules, bool have_keys) {
  std::vector<unapplied_profile_rule> unapplied;
  if (have_keys) {
    return unapplied;
  }
  for (const auto& [profile, names] : rules.profile_rules) {
    for (const auto& r : rules.rules) {
      const auto* edit = request_edit_of(r);
      if (edit != nullptr && std::find(names.begin(), names.end(), r.name) != names.end()) {
        unapplied.push_back({profile, r.name, std::string(edit->type())});
      }
    }
  }
  return unapplied;
}

std::vector<std::string> keys_needed_lines(const std::vector<unapplied_profile_rule>& unapplied) {
  std::vector<std::string> lines;
  for (const auto& profile : profiles_of(unapplied)) {
    const auto [listed, count] = listed_rules(unapplied, profile);
    lines.push_back(
        "--profile " + profile + (count == 1 ? ": rule " : ": rules ") + listed +
        (count == 1 ? " edits signed requests and needs" : " edit signed requests and need") +
        " --resign-access-key and --resign-secret-key (the store's keys); "
        "--partial-profile runs without them, those rules not applied to signed "
        "requests");
  }
  return lines;
}

std::vector<std::string>
partial_profile_lines(const std::vector<unapplied_profile_rule>& unapplied) {
  std::vector<std::string> lines;
  for (const auto& profile : profiles_of(unapplied)) {
    const auto [listed, count] = listed_rules(unapplied, profile);
    lines.push_back("profile " + profile + " applied partially (--partial-profile): " +
                    (count == 1 ? "rule " : "rules ") + listed +
                    " not applied to signed requests (no --resign-access-key and "
                    "--resign-secret-key)");
  }
  return lines;
}

nlohmann::json profile_block(const faults::config::rule_build& rules,
                             const std::vector<unapplied_profile_rule>& unapplied) {
  if (rules.profile_rules.empty()) {
    return nullptr;
  }
  nlohmann::json profiles = nlohmann::json::array();
  for (const auto& entry : rules.profile_rules) {
    profiles.push_back(entry.first);
  }
  nlohmann::json not_applied = nlohmann::json::array();
  for (const auto& entry : unapplied) {
    not_applied.push_back(
        {{"profile", entry.profile}, {"rule", entry.rule}, {"action", entry.action}});
  }
  return {{"profiles", profiles}, {"partial", !unapplied.empty()}, {"not_applied", not_applied}};
}

} // namespace s3fault::cli
