#pragma once
// Runs the catalog against a store: fixtures up, the selected checks one by one (each timed,
// each with its own outcome), fixtures down.
#include "conformance/audit/audit_types.hpp"
#include "conformance/audit/fixtures.hpp"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace s3fault::audit {

struct audit_settings {
  client::client_config client;
  std::string bucket;                        // empty: a new bucket named s3fault-audit-<random>
  bool keep = false;                         // leave the bucket and fixtures in place
  std::vector<std::string> check_globs{"*"}; // IDs to run (fnmatch globs)
  bool strict = false;
  fixture_plan plan{};
  /// Set (from another thread) to stop after the check in progress; the fixtures are still
  /// removed and the report says how many checks ran.
  const std::atomic<bool>* stop_requested = nullptr;
};

/// The catalog entries whose ID matches any of `globs`, in catalog order.
std::vector<const check_definition*> select_checks(const std::vector<std::string>& globs);

/// Empty when every glob matches a check ID (or an area, as AREA.*); else the error naming each
/// glob that matches nothing with the nearest names.
std::string unknown_check_globs(const std::vector<std::string>& globs);

/// Called after each check (the table prints as the audit goes), and once with the fixtures.
struct audit_observer {
  std::function<void(const fixture_set&)> fixtures_ready;
  std::function<void(const check_result&)> check_done;
  std::function<void(const std::string&)> cleanup_problem;
};

/// Runs the audit. Throws store_unusable when the store cannot be used at all (no connection,
/// credentials refused, fixtures rejected) and std::invalid_argument when a glob matches no
/// check.
audit_report run_audit(const audit_settings& settings, const audit_observer& observer = {});

} // namespace s3fault::audit
