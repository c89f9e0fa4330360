#pragma once
// What a reload does with the changes the admin API (or the page) made since the rules were
// last loaded. A reload rebuilds the rules from the command line's sources; a rule the API
// added, edited, switched or deleted is then either dropped (the sources' version wins, the
// default) or kept (--keep-api-rules), and either way the reload says so, rule by rule.
//
// Three versions of each rule name are compared: as last loaded (`loaded`), as live now
// (`live`, the API's changes in it) and as rebuilt (`rebuilt`). Kept, an API change survives
// only when the sources did not change that rule themselves: a rule edited in both places
// takes the sources' version, and the note says why.
#include "faults/rule.hpp"

#include <string>
#include <vector>

namespace s3fault::faults {

/// One change of the API's and what the reload did with it.
struct api_change_note {
  std::string rule;   // the rule's name
  std::string change; // "added", "edited", "switched off", "switched on", "deleted"
  std::string fate;   // what the reload did: e.g. "dropped: the sources have no such rule"
};

/// The rules to install, and the fate of every change the API made.
struct reload_merge {
  std::vector<rule> rules;
  std::vector<api_change_note> dropped; // the API's change is gone after the reload
  std::vector<api_change_note> kept;    // the API's change is still in force
};

/// What the last reload did with the API's changes: GET /rules shows it, and so does the page.
struct reload_notice {
  std::string why; // "SIGHUP", "a --faults file changed"
  std::string at;  // UTC, ISO 8601
  bool keep_api_changes = false;
  std::vector<api_change_note> dropped, kept;
};

/// Merges as the header says. `rebuilt` is in the sources' order; kept rules the API added
/// follow it, in their live order.
reload_merge merge_reload(const std::vector<rule>& loaded, const std::vector<rule>& live,
                          std::vector<rule> rebuilt, bool keep_api_changes);

/// "rule NAME (CHANGE through the admin API): FATE"
std::string describe(const api_change_note& note);

/// {"why", "at", "keep_api_rules", "dropped": [{"rule", "change", "fate"}...], "kept": [...]}
nlohmann::json reload_notice_json(const reload_notice& notice);

} // namespace s3fault::faults
