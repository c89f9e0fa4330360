// The gate's exit status and what its reports say about it: nothing judged fails, an interrupted
// or errored gate says so in the JSON (the same exit status as the process) and has an <error>
// in its JUnit, and a scenario with no selected shape is listed, never dropped.
#include "conformance/gate/gate_reports.hpp"
#include "conformance/gate/gate_runner.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include <sstream>

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

/// A single-GET reader's gate in small: 2 runs judged, 2 of strip's 3 not exercised. (Made in
/// place: the report points into the sample.)
void add_half_exercised_runs(sample_gate& gate) {
  gate.add_run("baseline", run_outcome::passed);
  gate.add_run("strip", run_outcome::passed);
  gate.add_run("strip", run_outcome::not_exercised);
  gate.add_run("strip", run_outcome::not_exercised);
}

TEST(GateExitStatus, MoreRunsNotExercisedThanTheLimitFailWithAClearLine) {
  sample_gate gate;
  add_half_exercised_runs(gate);
  EXPECT_EQ(gate_exit_status(gate.report), 0) << "no limit: not exercised is no failure";
  std::string error;
  gate.report.max_not_exercised = parse_not_exercised_limit("1", error);
  ASSERT_TRUE(gate.report.max_not_exercised) << error;
  EXPECT_EQ(gate_exit_status(gate.report), 1);
  EXPECT_EQ(exit_status_reason(gate.report),
            "2 of 4 runs not exercised (50 %), more than --max-not-exercised 1 allows");
  const auto json = gate.json();
  EXPECT_EQ(json["max_not_exercised"], "1");
  const auto& coverage = json["summary"]["coverage"];
  EXPECT_EQ(coverage["runs"], 4);
  EXPECT_EQ(coverage["judged"], 2);
  EXPECT_EQ(coverage["not_exercised"], 2);
  EXPECT_EQ(coverage["limit_exceeded"], true);
  EXPECT_EQ(coverage["by_scenario"]["strip"],
            (nlohmann::json{{"runs", 3}, {"judged", 1}, {"not_exercised", 2}, {"not_judged", 0}}));
  EXPECT_EQ(coverage["by_scenario"]["baseline"]["judged"], 1);
  EXPECT_EQ(coverage["by_expectation"]["must-recover"]["not_exercised"], 2);
  pugi::xml_document document;
  const auto suites = gate.junit(document);
  EXPECT_EQ(suites.attribute("failures").as_int(), 2) << "the limit and the exit status";
  const auto all = suites.find_child_by_attribute("testsuite", "name", "gate.coverage")
                       .find_child_by_attribute("testcase", "name", "all runs");
  EXPECT_STREQ(all.child("failure").attribute("type").value(), "NOT_EXERCISED");
  EXPECT_STREQ(all.child("failure").attribute("message").value(),
               "2 of 4 runs not exercised (50 %), more than --max-not-exercised 1 allows");

  gate.report.max_not_exercised = parse_not_exercised_limit("50%", error);
  EXPECT_EQ(gate_exit_status(gate.report), 0) << "2 of 4 is not more than 50 %";
  gate.report.max_not_exercised = parse_not_exercised_limit("49.5%", error);
  EXPECT_EQ(gate_exit_status(gate.report), 1);
  gate.report.max_not_exercised = parse_not_exercised_limit("2", error);
  EXPECT_EQ(gate_exit_status(gate.report), 0);
}

TEST(GateExitStatus, TheTableShowsCoveragePerScenarioAndExpectationAndTheLimit) {
  sample_gate gate;
  add_half_exercised_runs(gate);
  std::string error;
  gate.report.max_not_exercised = parse_not_exercised_limit("25%", error);
  std::ostringstream out;
  gate_text_report table(out, false);
  table.begin(run_role::reader, "r", "embedded origin", "http://127.0.0.1:1");
  table.finish(gate.report);
  const auto text = out.str();
  for (const char* line :
       {"coverage: 2 of 4 runs judged; 2 not exercised (50 %)\n",
        "  by expectation: must-recover 2 of 4 judged, 2 not exercised\n",
        "    baseline                   1 of 1 judged\n",
        "    strip                      1 of 3 judged, 2 not exercised\n",
        "not exercised: 2 of 4 runs not exercised (50 %), more than --max-not-exercised 25% "
        "allows\n",
        "2 passed, 0 failed, 2 not exercised, 0 not judged (verdicts of the 2 judged runs: 2 "
        "correct, 0 rejected, 0 silent corruption, 0 hung; ",
        "exit status 1: 2 of 4 runs not exercised (50 %), more than --max-not-exercised 25% "
        "allows\n"}) {
    EXPECT_NE(text.find(line), std::string::npos) << "missing: " << line << "\nin:\n" << text;
  }
}

TEST(GateExitStatus, TheParenthesisCountsOnlyTheJudgedRuns) {
  // A not exercised run's verdict (CORRECT: it read the object; no fault reached it) is no
  // coverage: "3 correct" beside 1 passed would read as if three runs had met their fault.
  sample_gate gate;
  add_half_exercised_runs(gate);
  const auto json = gate.json();
  EXPECT_EQ(json["summary"]["verdicts"]["CORRECT"], 4) << "every run's, as before";
  EXPECT_EQ(json["summary"]["judged_verdicts"]["CORRECT"], 2);
  std::ostringstream out;
  gate_text_report table(out, false);
  table.begin(run_role::reader, "r", "embedded origin", "http://127.0.0.1:1");
  table.finish(gate.report);
  EXPECT_NE(out.str().find("(verdicts of the 2 judged runs: 2 correct, "), std::string::npos)
      << out.str();
  EXPECT_EQ(out.str().find("4 correct"), std::string::npos) << out.str();
}

TEST(GateExitStatus, ALimitIsACountOrAShareOfTheRuns) {
  std::string error;
  EXPECT_TRUE(parse_not_exercised_limit("0", error));
  EXPECT_TRUE(parse_not_exercised_limit("100%", error));
  EXPECT_TRUE(parse_not_exercised_limit("12.5%", error));
  for (const char* bad : {"", "x", "1.5", "-1", "101%", "%", "1..2%"}) {
    error.clear();
    EXPECT_FALSE(parse_not_exercised_limit(bad, error)) << bad;
    EXPECT_EQ(error.rfind("--max-not-exercised " + std::string(bad) + ": ", 0), 0u) << error;
  }
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
