#include "conformance/audit/audit_reports.hpp"
#include "conformance/audit/failure_causes.hpp"
#include "conformance/report/junit_document.hpp"

#include <algorithm>

namespace s3fault::audit {
namespace {

using report::junit_outcome;
using report::junit_testcase;

std::string unmet_text(const check_result& result) {
  std::string text = std::string(to_string(result.strength)) + ": " + result.clause + "\n";
  if (!result.outcome.reason.empty()) {
    text += result.outcome.reason + "\n";
  }
  for (const auto& point : result.outcome.expectations) {
    if (!point.met) {
      text += "expected " + point.expected + "\nobserved " + point.observed + "\n";
    }
  }
  return text;
}

std::string first_line(const check_result& result) {
  for (const auto& point : result.outcome.expectations) {
    if (!point.met) {
      return point.observed;
    }
  }
  return result.outcome.reason;
}

junit_testcase named_testcase(const check_result& result, double seconds) {
  return {"audit." + result.area, result.id + " [" + std::string(to_string(result.strength)) + "]",
          seconds};
}

/// The cause of a failed check as properties (cause, fix, and fix_first: its rank among the
/// causes that decide the exit status) and as the failure text's last line.
void name_cause(junit_testcase& testcase, const cause_group& group) {
  testcase.properties.emplace_back("cause", group.id);
  testcase.properties.emplace_back("fix", group.fix);
  if (group.rank > 0) {
    testcase.properties.emplace_back("fix_first", std::to_string(group.rank));
  }
  testcase.text += "cause " + group.id + " (" + std::to_string(group.checks.size()) +
                   (group.checks.size() == 1 ? " check" : " checks") +
                   (group.rank > 0 ? ", fix first #" + std::to_string(group.rank) : "") +
                   "): " + group.fix + "\n";
}

/// FAIL and DEVIATION are a <failure>, ERROR an <error>, SKIP <skipped>.
junit_testcase checked_testcase(const check_result& result,
                                const std::vector<cause_group>& causes) {
  auto testcase = named_testcase(result, result.seconds);
  const std::string name(to_string(result.outcome.result));
  switch (result.outcome.result) {
  case verdict::pass:
    break;
  case verdict::fail:
  case verdict::deviation:
    testcase.outcome = junit_outcome::failure;
    testcase.type = name;
    testcase.message = name + " " + result.title + ": " + first_line(result);
    testcase.text = unmet_text(result);
    for (const auto& group : causes) {
      if (std::find(group.checks.begin(), group.checks.end(), &result) != group.checks.end()) {
        name_cause(testcase, group);
      }
    }
    break;
  case verdict::error:
    testcase.outcome = junit_outcome::error;
    testcase.message = result.outcome.reason;
    break;
  case verdict::skip:
    testcase.outcome = junit_outcome::skipped;
    testcase.message = result.outcome.reason;
    break;
  }
  return testcase;
}

/// A check an interruption left unrun: an error, so that no CI counts it as passed.
junit_testcase cut_off_testcase(const check_result& result) {
  auto testcase = named_testcase(result, 0);
  testcase.outcome = junit_outcome::error;
  testcase.type = "INTERRUPTED";
  testcase.message = "not run: the audit was interrupted";
  return testcase;
}

/// One testsuite per area, in catalog order; the checks cut off after those that ran.
std::vector<report::junit_testsuite> area_suites(const audit_report& report) {
  std::vector<report::junit_testsuite> suites;
  const auto causes = group_failures_by_cause(report);
  const auto suite_of = [&](const check_result& result) -> report::junit_testsuite& {
    const std::string name = "audit." + result.area;
    auto found = std::find_if(suites.begin(), suites.end(),
                              [&](const auto& suite) { return suite.name == name; });
    if (found != suites.end()) {
      return *found;
    }
    suites.push_back({name, report.started_at, {}});
    return suites.back();
  };
  for (const auto& result : report.results) {
    suite_of(result).testcases.push_back(checked_testcase(result, causes));
  }
  for (const auto& result : report.cut_off) {
    suite_of(result).testcases.push_back(cut_off_testcase(result));
  }
  return suites;
}

} // namespace

std::string junit_report(const audit_report& report) {
  const auto totals = count_verdicts(report);
  report::junit_document document;
  document.name = "s3fault audit of " + report.endpoint;
  document.seconds = report.seconds;
  document.counts = {report.results.size() + report.cut_off.size(),
                     totals.failed + totals.deviations, totals.errors + report.cut_off.size(),
                     totals.skipped};
  document.suites = area_suites(report);
  document.exit = {"audit", audit_exit_status(report), audit_exit_reason(report)};
  return report::junit_xml(document);
}

} // namespace s3fault::audit
