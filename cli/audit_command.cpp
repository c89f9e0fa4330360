#include "cli/audit_command.hpp"

#include "cli/command_support.hpp"
#include "cli/stop_signals.hpp"

#include "conformance/audit/audit_reports.hpp"
#include "conformance/audit/audit_runner.hpp"
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/profile_emitter.hpp"
#include "conformance/client/run_naming.hpp"
#include "conformance/origin/embedded_origin.hpp"
#include "faults/config/profiles.hpp"
#include "faults/config/rule_file.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <unistd.h>

namespace s3fault::cli {
namespace {

struct audit_options {
  std::string endpoint;
  store_access access;
  bool anonymous = false;
  std::string bucket;
  bool keep = false;
  std::vector<std::string> checks{"*"}; // globs, split at commas as parsed
  bool strict = false;
  std::string json_file;
  std::string junit_file;
  bool list = false;
  std::string colour = "auto";
  std::string emit_profile; // FILE: the profile that reproduces the store's deviations
  std::string profile_name; // its name (default: after the store's Server header)
};

// Writes the profile the audit's deviations make, checks that it loads as one, and says on the
// terminal what it reproduces and what no action can.
bool write_emitted_profile(const audit::audit_report& report, const audit_options& options) {
  auto identity = audit::default_identity(report);
  if (!options.profile_name.empty()) {
    identity.name = options.profile_name;
  }
  const auto emitted = audit::emit_profile(report, identity);
  faults::error_list errors;
  const auto document = faults::config::read_rule_text(emitted.yaml, options.emit_profile, errors);
  const auto built = faults::config::parse_rules(document.entries);
  if (!errors.empty() || !built.ok() || !document.profile ||
      !faults::config::read_profile_description(*document.profile, options.emit_profile, errors)) {
    std::cerr << "s3fault audit: the emitted profile does not load (a bug):\n";
    for (const auto& error : errors.empty() ? built.errors : errors) {
      std::cerr << "  " << error << "\n";
    }
    return false;
  }
  std::ofstream file(options.emit_profile, std::ios::trunc);
  file << emitted.yaml;
  file.close();
  if (!file) {
    std::cerr << "s3fault audit: cannot write --emit-profile " << options.emit_profile << "\n";
    return false;
  }
  std::cout << "profile " << identity.name << " written to " << options.emit_profile << ": "
            << emitted.rules << " rules reproduce " << emitted.reproduced.size() << " deviations; "
            << emitted.not_reproduced.size() << " cannot be reproduced"
            << (emitted.not_reproduced.empty() ? "" : ":") << "\n";
  for (const auto& [id, what] : emitted.not_reproduced) {
    std::cout << "  " << id << ": " << what << "\n";
  }
  return true;
}

void print_catalog(const std::vector<std::string>& globs) {
  for (const auto* check : audit::select_checks(globs)) {
    std::cout << check->id << std::string(check->id.size() < 36 ? 36 - check->id.size() : 1, ' ')
              << audit::to_string(check->strength)
              << std::string(8 - audit::to_string(check->strength).size(), ' ') << check->title
              << "\n";
  }
}

/// Writes the reports asked for (and the profile, after an audit that ran to its end); the exit
/// status they say, or 2 when one cannot be written.
int finish_audit(const audit_options& options, const audit::audit_report& report) {
  bool written = write_report_files(
      "audit", {{options.json_file, [&] { return audit::json_report(report); }},
                {options.junit_file, [&] { return audit::junit_report(report); }}});
  if (!options.emit_profile.empty() && !report.interrupted && report.error.empty()) {
    written = write_emitted_profile(report, options) && written;
  }
  return written ? audit::audit_exit_status(report) : 2;
}

/// The audit cannot run: each reason on stderr, and all of them (joined by "; ") in every report
/// asked for (exit 2).
int refuse_audit(const audit_options& options, const std::string& endpoint,
                 const std::vector<std::string>& reasons) {
  std::string joined;
  for (const auto& reason : reasons) {
    std::cerr << "s3fault audit: " << reason << "\n";
    joined += (joined.empty() ? "" : "; ") + reason;
  }
  audit::audit_report report;
  report.endpoint = endpoint;
  report.started_at = client::utc_now_iso8601();
  report.error = joined;
  return finish_audit(options, report);
}

int refuse_audit(const audit_options& options, const std::string& endpoint,
                 const std::string& error) {
  return refuse_audit(options, endpoint, std::vector<std::string>{error});
}

/// Every usage mistake at once: check globs that match nothing, report files that cannot be
/// written (each named on stderr as it is tried), the keys, the endpoint. Checked here rather
/// than by CLI11, whose parse errors would skip the reports a refusal still writes.
std::vector<std::string> audit_usage_mistakes(const audit_options& options) {
  std::vector<std::string> mistakes;
  if (auto unknown = audit::unknown_check_globs(options.checks); !unknown.empty()) {
    mistakes.push_back(std::move(unknown));
  }
  if (!report_paths_writable("audit", {{"--json", options.json_file},
                                       {"--junit", options.junit_file},
                                       {"--emit-profile", options.emit_profile}})) {
    mistakes.emplace_back("a report file cannot be written");
  }
  if (options.access.access_key.empty() != options.access.secret_key.empty()) {
    mistakes.emplace_back("--access-key and --secret-key go together");
  }
  if (auto refusal = store_url_refusal("--endpoint", options.endpoint); !refusal.empty()) {
    mistakes.push_back(std::move(refusal));
  }
  return mistakes;
}

int run_audit_command(const audit_options& options) {
  const auto& globs = options.checks;
  if (options.list && audit::unknown_check_globs(globs).empty()) {
    print_catalog(globs);
    return 0;
  }
  if (const auto mistakes = audit_usage_mistakes(options); !mistakes.empty()) {
    return refuse_audit(options, options.endpoint, mistakes);
  }
  // Ctrl-C stops after the check in progress and still removes the fixtures; a second one ends
  // the process at once. Blocked before any thread starts, so only the signal thread takes it.
  static std::atomic<bool> stop_requested{false};
  block_stop_signals();
  stop_on_signals([] { stop_requested = true; });
  // No --endpoint: the embedded origin, started here, is the store under audit.
  std::unique_ptr<origin::embedded_origin> embedded;
  audit::audit_settings settings;
  settings.client = store_client_config(options.endpoint, options.access, "s3fault-audit");
  settings.client.anonymous = options.anonymous;
  if (options.endpoint.empty()) {
    try {
      embedded = std::make_unique<origin::embedded_origin>();
    } catch (const std::exception& error) {
      return refuse_audit(options, "embedded origin",
                          std::string("cannot start the embedded origin: ") + error.what());
    }
    aim_at_embedded_origin(settings.client, embedded->url());
    std::cout << "no --endpoint: auditing the embedded origin at " << embedded->url() << "\n";
  }
  settings.bucket = options.bucket;
  settings.keep = options.keep;
  settings.check_globs = globs;
  settings.strict = options.strict;
  settings.stop_requested = &stop_requested;

  audit::text_report table(std::cout, use_colour(options.colour));
  audit::audit_observer observer;
  observer.fixtures_ready = [&](const audit::fixture_set& fixtures) {
    table.begin(settings.client.endpoint, fixtures.bucket);
  };
  observer.check_done = [&](const audit::check_result& result) { table.check_done(result); };
  observer.cleanup_problem = [](const std::string& problem) {
    std::cerr << "s3fault audit: left behind: " << problem << "\n";
  };
  audit::audit_report report;
  try {
    report = audit::run_audit(settings, observer);
  } catch (const audit::store_unusable& error) {
    return refuse_audit(options, settings.client.endpoint,
                        "the store at " + settings.client.endpoint +
                            " cannot be audited: " + error.what());
  } catch (const std::exception& error) {
    return refuse_audit(options, settings.client.endpoint, error.what());
  }
  table.finish(report);
  if (options.keep) {
    std::cout << "kept: bucket " << report.bucket << " and its s3fault-audit/ objects\n";
  }
  return finish_audit(options, report);
}

} // namespace

std::function<int()> add_audit_command(CLI::App& app) {
  auto options = std::make_shared<audit_options>();
  auto* command = app.add_subcommand(
      "audit",
      "Checks a store against the GetObject contract (partNumber, Range, conditionals, ETags,\n"
      "errors, checksums, GetObjectAttributes, versions, Complete retries, authentication) and\n"
      "says exactly where it deviates. It creates a bucket and five fixtures (single PUT,\n"
      "multipart 5+5+1 MiB, multipart 5+5 MiB, zero bytes, one byte), runs every check, and\n"
      "removes them again.\n"
      "Verdicts: PASS, FAIL, DEVIATION (a known alternative other stores show, still not a\n"
      "pass), SKIP (optional feature absent) and ERROR (no answer).\n"
      "Exit status: 0 when every MUST check passed (with --strict, every SHOULD too), 1 when\n"
      "not, 2 when the store cannot be used at all (the reason is printed), 130 when stopped\n"
      "by Ctrl-C (after the check in progress; the fixtures are still removed).\n\n"
      "Examples:\n"
      "  s3fault audit                                   # the embedded origin\n"
      "  s3fault audit --endpoint http://127.0.0.1:7480 --access-key K --secret-key S \\\n"
      "    --junit audit.xml --json audit.json\n"
      "  s3fault audit --endpoint http://127.0.0.1:9000 --checks 'part.*'\n"
      "  s3fault audit --list");
  command->add_option("--endpoint", options->endpoint,
                      "Store URL http(s)://HOST[:PORT]; default: an embedded origin started for "
                      "this audit");
  add_store_access_options(command, options->access, true);
  command->add_flag("--anonymous", options->anonymous,
                    "Send every request unsigned (a store that needs no credentials); the "
                    "auth.* checks SKIP");
  command->add_option("--bucket", options->bucket,
                      "Use this existing bucket (fixtures go under s3fault-audit/<random>/); "
                      "default: create s3fault-audit-<random>");
  command->add_flag("--keep", options->keep, "Leave the bucket and fixtures in place afterwards");
  command
      ->add_option("--checks", options->checks,
                   "Run only the checks whose ID matches a glob (comma-separated or repeated), "
                   "e.g. 'part.*,range.suffix'")
      ->delimiter(',');
  command->add_flag("--strict", options->strict, "SHOULD checks decide the exit status too");
  command->add_option("--json", options->json_file,
                      "Write the full report (every expectation and exchange) as JSON");
  command->add_option("--junit", options->junit_file,
                      "Write JUnit XML, one testcase per check (FAIL and DEVIATION as failures)");
  command->add_option("--emit-profile", options->emit_profile,
                      "Write the store profile that makes another store (s3fault origin) deviate "
                      "as this one did: one proxy rule per known deviation, the others listed as "
                      "not reproduced (use it with 's3fault proxy --profile FILE'; "
                      "docs/profiles.md)");
  command->add_option("--profile-name", options->profile_name,
                      "Name of the --emit-profile profile (default: after the store's Server "
                      "header)");
  command->add_flag("--list", options->list, "Print the catalog (ID, level, title) and exit");
  command
      ->add_option("--color", options->colour,
                   "Colour the table: auto (on a terminal), "
                   "always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  return [options]() { return run_audit_command(*options); };
}

} // namespace s3fault::cli
