#include "conformance/gate/gate_reports.hpp"
#include "conformance/report/junit_document.hpp"

namespace s3fault::gate {
namespace {

using report::junit_outcome;
using report::junit_testcase;

std::string testcase_name(const run_result& run) {
  return run.shape + " [" + std::string(to_string(run.expect)) + "]";
}

/// One run as a testcase: a failure, a skip with its reason (not exercised, not judged), or a
/// pass; each carries the run's key, seed, rules and repro.
junit_testcase run_testcase(const run_result& run, run_role role) {
  junit_testcase testcase{"gate." + run.scenario, testcase_name(run), run.seconds};
  testcase.properties = {
      {"key", run.key}, {"seed", std::to_string(run.seed)}, {"rules", run.rules.dump()}};
  const std::string summary = std::string(to_string(run.judged.result)) + ": " + run.judged.why +
                              "; " + describe_traffic(run.seen, role) +
                              (role == run_role::writer ? "; " + describe_open_uploads(run) : "");
  switch (run.judged.outcome) {
  case run_outcome::failed: {
    testcase.outcome = junit_outcome::failure;
    testcase.type = std::string(to_string(run.judged.result));
    testcase.message = summary;
    const std::string repro_file =
        run.repro_file.empty() ? "" : "\n\nrepro: bash " + run.repro_file;
    testcase.text = summary + "\n" + std::string(role_name(role)) + " stderr (tail):\n" +
                    run.stderr_tail + repro_file + "\n\nrepro.sh:\n" + run.repro;
    break;
  }
  case run_outcome::not_exercised:
  case run_outcome::not_judged:
    testcase.outcome = junit_outcome::skipped;
    testcase.message = summary;
    break;
  case run_outcome::passed:
    testcase.text = summary; // <system-out>
    break;
  }
  return testcase;
}

/// A run with no verdict: interrupted, an error each; stopped by a gate error, skipped (the
/// error is the gate's).
junit_testcase cut_off_testcase(const run_result& run, bool interrupted) {
  junit_testcase testcase{"gate." + run.scenario, testcase_name(run), 0};
  testcase.outcome = interrupted ? junit_outcome::error : junit_outcome::skipped;
  testcase.type = interrupted ? "INTERRUPTED" : "";
  testcase.message = interrupted ? "cut off before its verdict: the gate was interrupted"
                                 : "not run: the gate stopped on an error";
  return testcase;
}

/// The testsuite "gate.<scenario>": its runs, those cut off, and "no selected shape" when it was
/// not planned.
report::junit_testsuite scenario_suite(const gate_report& report, const scenario& s) {
  report::junit_testsuite suite{"gate." + s.name, "", {}};
  for (const auto& run : report.runs) {
    if (run.scenario == s.name && run.owned) { // a shard's dependency baseline is its owner's
      suite.testcases.push_back(run_testcase(run, report.role));
    }
  }
  for (const auto& run : report.cut_off) {
    if (run.scenario == s.name) {
      suite.testcases.push_back(cut_off_testcase(run, report.interrupted));
    }
  }
  for (const auto& each : report.unplanned) {
    if (each.selected == &s) {
      junit_testcase testcase{suite.name, "no selected shape", 0};
      testcase.outcome = junit_outcome::skipped;
      testcase.message = each.reason;
      suite.testcases.push_back(testcase);
    }
  }
  return suite;
}

} // namespace

std::string gate_junit_report(const gate_report& report) {
  const auto totals = count_runs(report);
  const std::size_t cut_off = report.cut_off.size();
  report::junit_document document;
  document.name = "s3fault gate of " + report.client;
  document.seconds = report.seconds;
  document.counts = {totals.runs() + cut_off + report.unplanned.size(), totals.failed,
                     report.interrupted ? cut_off : 0,
                     totals.not_exercised + totals.not_judged + report.unplanned.size() +
                         (report.interrupted ? 0 : cut_off)};
  for (const auto* s : report.scenarios) {
    document.suites.push_back(scenario_suite(report, *s));
  }
  document.exit = {"gate", gate_exit_status(report), exit_status_reason(report)};
  return report::junit_xml(document);
}

} // namespace s3fault::gate
