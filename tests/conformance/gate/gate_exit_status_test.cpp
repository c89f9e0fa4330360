// The gate's exit status and what its reports say about it: nothing judged fails, an interrupted
// or errored gate says so in the JSON (the same exit status as the process) and has an <error>
// in its JUnit, and a scenario with no selected shape is listed, never dropped.
#include "conformance/gate/gate_reports.hpp"
#include "conformance/gate/gate_runner.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

namespace s3fault::gate {
namespace {

/// A report of the scenarios baseline, strip (needs an injection) and parts (unplanned).
struct sample_gate {
  scenario baseline, strip, parts;
  gate_report report;

  sample_gate() {
    baseline.name = "baseline";
    baseline.needs_injection = false;
    strip.name = "strip";
    parts.name = "parts";
    parts.multipart_only = true;
    report.client = "builtin:robust-parts";
    report.scenarios = {&baseline, &strip, &parts};
    report.unplanned = {{&parts, "needs a multipart shape; none selected"}};
  }

  void add_run(const std::string& scenario, run_outcome outcome) {
    run_result run;
    run.scenario = scenario;
    run.shape = "1KiB";
    run.judged.outcome = outcome;
    report.runs.push_back(run);
    ++report.runs_planned;
  }

  nlohmann::json json() const { return nlohmann::json::parse(gate_json_report(report)); }

  pugi::xml_node junit(pugi::xml_document& document) const {
    EXPECT_TRUE(document.load_string(gate_junit_report(report).c_str()));
    return document.child("testsuites");
  }
};

TEST(GateExitStatus, OnlyTheBaselineJudgedIsAFailureThatNamesEachScenario) {
  sample_gate gate;
  gate.add_run("baseline", run_outcome::passed);
  gate.add_run("strip", run_outcome::not_exercised);
  EXPECT_EQ(gate_exit_status(gate.report), 1);
  EXPECT_EQ(exit_status_reason(gate.report),
            "nothing was judged: strip: not exercised on any shape; parts: needs a multipart "
            "shape; none selected");
  const auto json = gate.json();
  EXPECT_EQ(json["summary"]["exit_status"], 1);
  EXPECT_EQ(json["unplanned_scenarios"][0]["scenario"], "parts");
  pugi::xml_document document;
  const auto suites = gate.junit(document);
  EXPECT_EQ(suites.attribute("failures").as_int(), 1);
  EXPECT_TRUE(suites.find_child_by_attribute("testsuite", "name", "gate.exit-status")
                  .child("testcase")
                  .child("failure"));
  EXPECT_STREQ(suites.find_child_by_attribute("testsuite", "name", "gate.parts")
                   .child("testcase")
                   .child("skipped")
                   .attribute("message")
                   .value(),
               "needs a multipart shape; none selected");
}

TEST(GateExitStatus, AJudgedScenarioRunPasses) {
  sample_gate gate;
  gate.add_run("baseline", run_outcome::passed);
  gate.add_run("strip", run_outcome::passed);
  EXPECT_EQ(gate_exit_status(gate.report), 0);
  pugi::xml_document document;
  const auto suites = gate.junit(document);
  EXPECT_EQ(suites.attribute("failures").as_int(), 0);
  EXPECT_EQ(suites.attribute("errors").as_int(), 0);
}

TEST(GateExitStatus, AnInterruptedGateSays130AndListsTheRunsCutOffAsErrors) {
  sample_gate gate;
  gate.add_run("baseline", run_outcome::passed);
  gate.add_run("strip", run_outcome::passed);
  run_result cut;
  cut.scenario = "strip";
  cut.shape = "11MiB";
  gate.report.cut_off.push_back(cut);
  ++gate.report.runs_planned;
  gate.report.interrupted = true;
  EXPECT_EQ(gate_exit_status(gate.report), 130);
  const auto json = gate.json();
  EXPECT_EQ(json["summary"]["exit_status"], 130);
  EXPECT_EQ(json["summary"]["exit_reason"],
            "interrupted after 2 of 3 runs; 1 were cut off before their verdict");
  EXPECT_EQ(json["cut_off_runs"][0]["shape"], "11MiB");
  pugi::xml_document document;
  const auto suites = gate.junit(document);
  EXPECT_EQ(suites.attribute("errors").as_int(), 2); // the cut-off run and the exit status
  EXPECT_TRUE(suites.find_child_by_attribute("testsuite", "name", "gate.strip")
                  .find_child_by_attribute("testcase", "name", "11MiB [must-recover]")
                  .child("error"));
}

TEST(GateExitStatus, AGateThatCouldNotJudgeSays2WithTheReason) {
  const auto report = error_report(run_role::reader, "my-reader", "--shapes: no shape matches 'x'");
  EXPECT_EQ(gate_exit_status(report), 2);
  const auto json = nlohmann::json::parse(gate_json_report(report));
  EXPECT_EQ(json["summary"]["exit_status"], 2);
  EXPECT_EQ(json["error"], "--shapes: no shape matches 'x'");
  pugi::xml_document document;
  ASSERT_TRUE(document.load_string(gate_junit_report(report).c_str()));
  const auto error =
      document.child("testsuites").child("testsuite").child("testcase").child("error");
  EXPECT_STREQ(error.attribute("type").value(), "COULD_NOT_RUN");
  EXPECT_STREQ(error.attribute("message").value(),
               "exit status 2: the gate could not judge: --shapes: no shape matches 'x'");
}

} // namespace
} // namespace s3fault::gate
