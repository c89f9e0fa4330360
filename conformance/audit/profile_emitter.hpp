#pragma once
// `s3fault audit --emit-profile FILE`: from an audit of a store, the store profile
// (faults/config/profiles.hpp) whose rules make another store (the origin) deviate the same way.
// Each known deviation (a check that did not pass, and what the store did instead) maps to one
// rule; every other deviation is listed as not reproduced, with what the store did.
#include "conformance/audit/audit_types.hpp"

#include <string>
#include <utility>
#include <vector>

namespace s3fault::audit {

struct profile_identity {
  std::string name;    // the profile's name
  std::string store;   // what it imitates
  std::string version; // the store's version, as known
  std::string source;  // where the deviations were learned
};

struct emitted_profile {
  std::string yaml; // the profile file
  std::size_t rules = 0;
  std::vector<std::string> reproduced; // check ids the rules reproduce
  /// Deviations no rule reproduces: (check id, what the store did).
  std::vector<std::pair<std::string, std::string>> not_reproduced;
};

emitted_profile emit_profile(const audit_report& report, const profile_identity& identity);

/// The identity an audit gives by default: named after the store's Server header (or "store"),
/// the source naming the endpoint and the date.
profile_identity default_identity(const audit_report& report);

} // namespace s3fault::audit
