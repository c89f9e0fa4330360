#include "conformance/audit/audit_runner.hpp"

#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"
#include "conformance/client/run_naming.hpp"
#include "faults/rule.hpp"
#include "text/nearest_names.hpp"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <random>
#include <stdexcept>

namespace s3fault::audit {
namespace {

check_result run_one(const check_definition& check, client::s3_client& client,
                     const fixture_set& fixtures, std::vector<std::string>& created_keys) {
  check_result result{check.id, check.area, check.title, check.strength, check.clause, {}, 0};
  check_context ctx(client, fixtures, result.outcome);
  const auto started = std::chrono::steady_clock::now();
  try {
    check.run(ctx);
  } catch (const std::exception& error) {
    ctx.error(std::string("the check stopped: ") + error.what());
  }
  result.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  ctx.conclude();
  created_keys.insert(created_keys.end(), ctx.created_keys().begin(), ctx.created_keys().end());
  return result;
}

} // namespace

std::vector<const check_definition*> select_checks(const std::vector<std::string>& globs) {
  std::vector<const check_definition*> chosen;
  for (const auto& check : audit_catalog()) {
    for (const auto& glob : globs) {
      if (faults::glob_matches(glob, check.id)) {
        chosen.push_back(&check);
        break;
      }
    }
  }
  return chosen;
}

std::string unknown_check_globs(const std::vector<std::string>& globs) {
  std::vector<std::string> names; // the IDs, and each area as AREA.*
  for (const auto& check : audit_catalog()) {
    names.push_back(check.id);
    if (std::find(names.begin(), names.end(), check.area + ".*") == names.end()) {
      names.push_back(check.area + ".*");
    }
  }
  std::string text;
  for (const auto& glob : globs) {
    const bool known = std::any_of(names.begin(), names.end(), [&](const std::string& name) {
      return faults::glob_matches(glob, name);
    });
    if (!known) {
      text += (text.empty() ? "--checks: no check matches " : ", nor ") +
              text::quoted_with_nearest(glob, names);
    }
  }
  return text.empty() ? text : text + " ('s3fault audit --list' shows the IDs)";
}

audit_report run_audit(const audit_settings& settings, const audit_observer& observer) {
  if (const auto unknown = unknown_check_globs(settings.check_globs); !unknown.empty()) {
    throw std::invalid_argument(unknown);
  }
  const auto checks = select_checks(settings.check_globs);
  audit_report report;
  report.endpoint = settings.client.endpoint;
  report.strict = settings.strict;
  report.started_at = client::utc_now_iso8601();
  const auto started = std::chrono::steady_clock::now();

  client::s3_client client(settings.client);
  const bool bucket_given = !settings.bucket.empty();
  const std::string suffix = client::random_name_suffix(10);
  report.bucket = bucket_given ? settings.bucket : "s3fault-audit-" + suffix;
  // Keys of one run share a prefix, so an existing bucket can hold several audits' leftovers.
  const std::string prefix = "s3fault-audit/" + suffix + "/";
  const auto fixtures = create_fixtures(client, report.bucket, bucket_given, prefix, settings.plan);
  const auto head = client.head_object(report.bucket, fixtures.single.key);
  report.store_server = std::string(head.header("Server").value_or(""));
  if (observer.fixtures_ready) {
    observer.fixtures_ready(fixtures);
  }

  std::vector<std::string> created_keys;
  report.checks_selected = checks.size();
  for (const check_definition* check : checks) {
    if (settings.stop_requested != nullptr && settings.stop_requested->load()) {
      report.interrupted = true;
      report.cut_off.push_back(
          {check->id, check->area, check->title, check->strength, check->clause, {}, 0});
      continue;
    }
    report.results.push_back(run_one(*check, client, fixtures, created_keys));
    if (observer.check_done) {
      observer.check_done(report.results.back());
    }
  }
  if (!settings.keep) {
    for (const auto& problem : remove_fixtures(client, fixtures, created_keys)) {
      if (observer.cleanup_problem) {
        observer.cleanup_problem(problem);
      }
    }
  }
  report.seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return report;
}

} // namespace s3fault::audit
