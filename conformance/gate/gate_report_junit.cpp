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

/// "78 of 130 runs judged; 52 not exercised; 0 not judged".
std::string coverage_text(const coverage_count& count) {
  return std::to_string(count.judged) + " of " + std::to_string(count.runs) + " runs judged; " +
         std::to_string(count.not_exercised) + " not exercised; " +
         std::to_string(count.not_judged) + " not judged";
}

/// The testsuite "gate.coverage": how many runs said something, of all of them (a failure when
/// more were not exercised than --max-not-exercised allows), per expectation and per scenario.
/// Empty when no run was made.
report::junit_testsuite coverage_suite(const gate_report& report) {
  const auto coverage = count_coverage(report);
  report::junit_testsuite suite{"gate.coverage", "", {}};
  if (coverage.all.runs == 0) {
    return suite;
  }
  const auto coverage_case = [&](const std::string& name, const coverage_count& count) {
    junit_testcase testcase{suite.name, name, 0};
    testcase.properties = {{"runs", std::to_string(count.runs)},
                           {"judged", std::to_string(count.judged)},
                           {"not_exercised", std::to_string(count.not_exercised)},
                           {"not_judged", std::to_string(count.not_judged)}};
    testcase.text = coverage_text(count);
    return testcase;
  };
  auto all = coverage_case("all runs", coverage.all);
  if (report.max_not_exercised) {
    const std::string limit = not_exercised_text(coverage.all) +
                              (coverage.limit_exceeded ? ", more than" : ", within") +
                              " --max-not-exercised " + report.max_not_exercised->text +
                              (coverage.limit_exceeded ? " allows" : "");
    all.properties.emplace_back("max_not_exercised", report.max_not_exercised->text);
    if (coverage.limit_exceeded) {
      all.outcome = junit_outcome::failure;
      all.type = "NOT_EXERCISED";
      all.message = limit;
    } else {
      all.text += "\n" + limit;
    }
  }
  suite.testcases.push_back(all);
  for (const auto& [expect, count] : coverage.by_expectation) {
    suite.testcases.push_back(
        coverage_case("expectation " + std::string(to_string(expect)), count));
  }
  for (const auto& [name, count] : coverage.by_scenario) {
    suite.testcases.push_back(coverage_case("scenario " + name, count));
  }
  return suite;
}

} // namespace

std::string gate_junit_report(const gate_report& report) {
  const auto totals = count_runs(report);
  const std::size_t cut_off = report.cut_off.size();
  const auto coverage = coverage_suite(report);
  report::junit_document document;
  document.name = "s3fault gate of " + report.client;
  document.seconds = report.seconds;
  document.counts = {totals.runs() + cut_off + report.unplanned.size() + coverage.testcases.size(),
                     totals.failed + (count_coverage(report).limit_exceeded ? 1 : 0),
                     report.interrupted ? cut_off : 0,
                     totals.not_exercised + totals.not_judged + report.unplanned.size() +
                         (report.interrupted ? 0 : cut_off)};
  for (const auto* s : report.scenarios) {
    document.suites.push_back(scenario_suite(report, *s));
  }
  if (!coverage.testcases.empty()) {
    document.suites.push_back(coverage);
  }
  document.exit = {"gate", gate_exit_status(report), exit_status_reason(report)};
  return report::junit_xml(document);
}

} // namespace s3fault::gate
