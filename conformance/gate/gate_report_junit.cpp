#include "conformance/gate/gate_reports.hpp"

#include "conformance/audit/junit_exit_status.hpp"

#include <pugixml.hpp>

#include <sstream>

namespace s3fault::gate {
namespace {

/// One run as a testcase: a failure, a skip with its reason (not exercised, not judged), or a
/// pass; each carries the run's key, seed, rules and repro.
void add_testcase(pugi::xml_node suite, const std::string& name, const run_result& run,
                  run_role role) {
  auto testcase = suite.append_child("testcase");
  testcase.append_attribute("classname") = ("gate." + name).c_str();
  testcase.append_attribute("name") =
      (run.shape + " [" + std::string(to_string(run.expect)) + "]").c_str();
  testcase.append_attribute("time") = run.seconds;
  const std::string summary = std::string(to_string(run.judged.result)) + ": " + run.judged.why +
                              "; " + describe_traffic(run.seen, role) +
                              (role == run_role::writer ? "; " + describe_open_uploads(run) : "");
  auto properties = testcase.append_child("properties");
  const auto property = [&](const char* key, const std::string& value) {
    auto p = properties.append_child("property");
    p.append_attribute("name") = key;
    p.append_attribute("value") = value.c_str();
  };
  property("key", run.key);
  property("seed", std::to_string(run.seed));
  property("rules", run.rules.dump());
  switch (run.judged.outcome) {
  case run_outcome::failed: {
    auto failure = testcase.append_child("failure");
    failure.append_attribute("type") = std::string(to_string(run.judged.result)).c_str();
    failure.append_attribute("message") = summary.c_str();
    const std::string repro_file =
        run.repro_file.empty() ? "" : "\n\nrepro: bash " + run.repro_file;
    failure.text() = (summary + "\n" + std::string(role_name(role)) + " stderr (tail):\n" +
                      run.stderr_tail + repro_file + "\n\nrepro.sh:\n" + run.repro)
                         .c_str();
    break;
  }
  case run_outcome::not_exercised:
  case run_outcome::not_judged:
    testcase.append_child("skipped").append_attribute("message") = summary.c_str();
    break;
  case run_outcome::passed:
    testcase.append_child("system-out").text() = summary.c_str();
    break;
  }
}

/// A testcase named `name` in `suite` with one child `kind` (skipped, failure or error).
void add_outcome_testcase(pugi::xml_node suite, const std::string& classname,
                          const std::string& name, const char* kind, const std::string& type,
                          const std::string& message) {
  auto testcase = suite.append_child("testcase");
  testcase.append_attribute("classname") = classname.c_str();
  testcase.append_attribute("name") = name.c_str();
  testcase.append_attribute("time") = 0;
  auto outcome = testcase.append_child(kind);
  if (!type.empty()) {
    outcome.append_attribute("type") = type.c_str();
  }
  outcome.append_attribute("message") = message.c_str();
}

} // namespace

std::string gate_junit_report(const gate_report& report) {
  pugi::xml_document document;
  auto declaration = document.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";
  const auto totals = count_runs(report);
  auto root = document.append_child("testsuites");
  root.append_attribute("name") = ("s3fault gate of " + report.client).c_str();
  root.append_attribute("tests") = totals.runs() + report.cut_off.size() + report.unplanned.size();
  root.append_attribute("failures") = totals.failed;
  const std::size_t cut_off = report.cut_off.size();
  root.append_attribute("errors") = report.interrupted ? cut_off : 0;
  root.append_attribute("skipped") = totals.not_exercised + totals.not_judged +
                                     report.unplanned.size() + (report.interrupted ? 0 : cut_off);
  root.append_attribute("time") = report.seconds;
  for (const auto* s : report.scenarios) {
    auto suite = root.append_child("testsuite");
    suite.append_attribute("name") = ("gate." + s->name).c_str();
    std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
    double seconds = 0;
    for (const auto& run : report.runs) {
      if (run.scenario != s->name || !run.owned) {
        continue; // a shard's dependency baseline is its owner's testcase
      }
      ++tests;
      seconds += run.seconds;
      failures += run.judged.outcome == run_outcome::failed;
      skipped += run.judged.outcome == run_outcome::not_exercised ||
                 run.judged.outcome == run_outcome::not_judged;
      add_testcase(suite, s->name, run, report.role);
    }
    for (const auto& run : report.cut_off) {
      if (run.scenario == s->name) {
        ++tests;
        // Interrupted: an error each. Stopped by a gate error: skipped, the error is the gate's.
        ++(report.interrupted ? errors : skipped);
        add_outcome_testcase(
            suite, "gate." + s->name, run.shape + " [" + std::string(to_string(run.expect)) + "]",
            report.interrupted ? "error" : "skipped", report.interrupted ? "INTERRUPTED" : "",
            report.interrupted ? "cut off before its verdict: the gate was interrupted"
                               : "not run: the gate stopped on an error");
      }
    }
    for (const auto& each : report.unplanned) {
      if (each.selected == s) {
        ++tests;
        ++skipped;
        add_outcome_testcase(suite, "gate." + s->name, "no selected shape", "skipped", "",
                             each.reason);
      }
    }
    suite.append_attribute("tests") = tests;
    suite.append_attribute("failures") = failures;
    suite.append_attribute("errors") = errors;
    suite.append_attribute("skipped") = skipped;
    suite.append_attribute("time") = seconds;
  }
  audit::add_exit_status_suite(root, "gate", gate_exit_status(report), exit_status_reason(report),
                               report.seconds);
  std::ostringstream out;
  document.save(out, "  ");
  return out.str();
}

} // namespace s3fault::gate
