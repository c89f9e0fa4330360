#include "faults/reload_merge.hpp"

#include <algorithm>
#include <optional>

namespace s3fault::faults {
namespace {

const rule* named(const std::vector<rule>& rules, std::string_view name) {
  const auto found =
      std::find_if(rules.begin(), rules.end(), [&](const rule& r) { return r.name == name; });
  return found == rules.end() ? nullptr : &*found;
}

/// The definition without its switch: an edit and a switch are told apart.
nlohmann::json without_switch(const rule& r) {
  auto definition = r.definition;
  if (definition.is_object()) {
    definition.erase("enabled");
  }
  return definition;
}

bool same_rule(const rule* a, const rule* b) {
  if (a == nullptr || b == nullptr) {
    return a == b;
  }
  return a->enabled == b->enabled && without_switch(*a) == without_switch(*b);
}

/// What the API did to a rule between `loaded` and `live`; none when it did nothing.
std::optional<std::string> api_change(const rule* loaded, const rule* live) {
  if (same_rule(loaded, live)) {
    return std::nullopt;
  }
  if (loaded == nullptr) {
    return "added";
  }
  if (live == nullptr) {
    return "deleted";
  }
  if (without_switch(*loaded) != without_switch(*live)) {
    return "edited";
  }
  return live->enabled ? "switched on" : "switched off";
}

/// Why the sources' version replaces the API's, in the words of the note.
std::string why_dropped(const rule* loaded, const rule* rebuilt, bool keep_api_changes) {
  if (keep_api_changes) {
    return loaded == nullptr ? "dropped: the sources now have a rule of this name, and theirs wins"
                             : "dropped: the sources changed this rule too, and theirs wins";
  }
  if (rebuilt == nullptr) {
    return loaded == nullptr ? "dropped: the sources have no such rule"
                             : "dropped: the sources no longer have this rule";
  }
  return "dropped: back to the sources' version";
}

/// Every rule name of the three versions, the sources' first, then the live ones.
std::vector<std::string> all_names(const std::vector<rule>& loaded, const std::vector<rule>& live,
                                   const std::vector<rule>& rebuilt) {
  std::vector<std::string> names;
  for (const auto* rules : {&rebuilt, &loaded, &live}) {
    for (const auto& r : *rules) {
      if (std::find(names.begin(), names.end(), r.name) == names.end()) {
        names.push_back(r.name);
      }
    }
  }
  return names;
}

/// Puts the live version of rule `name` where the rebuilt one stands (none: deleted), or after
/// the rebuilt rules when the API added it.
void keep_live_version(std::vector<rule>& rebuilt, std::vector<rule>& added_kept,
                       std::string_view name, const rule* live) {
  const auto at =
      std::find_if(rebuilt.begin(), rebuilt.end(), [&](const rule& r) { return r.name == name; });
  if (at == rebuilt.end()) {
    if (live != nullptr) {
      added_kept.push_back(*live);
    }
  } else if (live == nullptr) {
    rebuilt.erase(at);
  } else {
    *at = *live;
  }
}

} // namespace

reload_merge merge_reload(const std::vector<rule>& loaded, const std::vector<rule>& live,
                          std::vector<rule> rebuilt, bool keep_api_changes) {
  reload_merge merged;
  std::vector<rule> added_kept;
  for (const auto& name : all_names(loaded, live, rebuilt)) {
    const rule* was = named(loaded, name);
    const rule* now = named(live, name);
    const rule* next = named(rebuilt, name);
    const auto change = api_change(was, now);
    if (!change) {
      continue; // the rebuilt version (or its absence) stands
    }
    // Kept only when the sources left this rule as it was loaded.
    if (keep_api_changes && same_rule(was, next)) {
      merged.kept.push_back({name, *change, "kept"});
      keep_live_version(rebuilt, added_kept, name, now);
      continue;
    }
    merged.dropped.push_back({name, *change, why_dropped(was, next, keep_api_changes)});
  }
  merged.rules = std::move(rebuilt);
  merged.rules.insert(merged.rules.end(), added_kept.begin(), added_kept.end());
  return merged;
}

std::string describe(const api_change_note& note) {
  return "rule " + note.rule + " (" + note.change + " through the admin API): " + note.fate;
}

nlohmann::json reload_notice_json(const reload_notice& notice) {
  const auto notes = [](const std::vector<api_change_note>& list) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& n : list) {
      out.push_back({{"rule", n.rule}, {"change", n.change}, {"fate", n.fate}});
    }
    return out;
  };
  return {{"why", notice.why},
          {"at", notice.at},
          {"keep_api_rules", notice.keep_api_changes},
          {"dropped", notes(notice.dropped)},
          {"kept", notes(notice.kept)}};
}

} // namespace s3fault::faults
