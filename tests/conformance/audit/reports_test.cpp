// The three reports from one hand-made audit_report with every verdict: the exit status policy,
// the JSON summary, the JUnit structure (one testcase per check) and the table's closing lines.
#include "conformance/audit/audit_reports.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include <sstream>

namespace s3fault::audit {
namespace {

check_result result(std::string id, level strength, verdict outcome) {
  check_result r;
  r.id = std::move(id);
  r.area = r.id.substr(0, r.id.find('.'));
  r.title = "title of " + r.id;
  r.strength = strength;
  r.clause = "clause & <text>";
  r.outcome.result = outcome;
  r.seconds = 0.25;
  if (outcome == verdict::fail) {
    r.outcome.expectations.push_back({"x-amz-mp-parts-count: 3", "no x-amz-mp-parts-count", false});
  }
  if (outcome != verdict::pass && outcome != verdict::fail) {
    r.outcome.reason = "because";
  }
  return r;
}

audit_report sample(bool strict) {
  audit_report report;
  report.endpoint = "http://127.0.0.1:9000";
  report.bucket = "b";
  report.strict = strict;
  report.seconds = 1.5;
  report.results = {
      result("part.a", level::must, verdict::pass), result("part.b", level::should, verdict::fail),
      result("range.c", level::must, verdict::deviation),
      result("range.d", level::may, verdict::skip), result("etag.e", level::may, verdict::error)};
  return report;
}

TEST(ExitStatus, MustDeviationFailsShouldFailureOnlyWhenStrict) {
  auto report = sample(false);
  EXPECT_EQ(audit_exit_status(report), 1); // range.c: a MUST that deviates
  report.results[2].outcome.result = verdict::pass;
  EXPECT_EQ(audit_exit_status(report), 0); // SHOULD fail, MAY error: not gating
  report.strict = true;
  EXPECT_EQ(audit_exit_status(report), 1); // now the SHOULD counts
  report.results[1].outcome.result = verdict::skip;
  EXPECT_EQ(audit_exit_status(report), 0); // skips never fail
}

TEST(JsonReport, SummaryAndEveryCheck) {
  const auto document = nlohmann::json::parse(json_report(sample(false)));
  EXPECT_EQ(document["summary"]["checks"], 5);
  EXPECT_EQ(document["summary"]["passed"], 1);
  EXPECT_EQ(document["summary"]["failed"], 1);
  EXPECT_EQ(document["summary"]["deviations"], 1);
  EXPECT_EQ(document["summary"]["skipped"], 1);
  EXPECT_EQ(document["summary"]["errors"], 1);
  EXPECT_EQ(document["summary"]["not_met"], nlohmann::json::array({"range.c"}));
  EXPECT_EQ(document["summary"]["exit_status"], 1);
  ASSERT_EQ(document["checks"].size(), 5u);
  const auto& failed = document["checks"][1];
  EXPECT_EQ(failed["id"], "part.b");
  EXPECT_EQ(failed["level"], "SHOULD");
  EXPECT_EQ(failed["verdict"], "FAIL");
  EXPECT_EQ(failed["expectations"][0]["observed"], "no x-amz-mp-parts-count");
  EXPECT_EQ(failed["seconds"], 0.25);
}

TEST(JunitReport, OneTestcasePerCheckWithTheRightElements) {
  const auto xml = junit_report(sample(false));
  pugi::xml_document document;
  ASSERT_TRUE(document.load_string(xml.c_str())) << xml;
  const auto root = document.child("testsuites");
  EXPECT_EQ(root.attribute("tests").as_int(), 6);    // five checks and the exit status
  EXPECT_EQ(root.attribute("failures").as_int(), 3); // FAIL, DEVIATION and the exit status 1
  EXPECT_EQ(root.attribute("errors").as_int(), 1);
  EXPECT_EQ(root.attribute("skipped").as_int(), 1);
  std::vector<std::string> suites;
  int cases = 0;
  for (const auto suite : root.children("testsuite")) {
    suites.push_back(suite.attribute("name").as_string());
    for (const auto testcase : suite.children("testcase")) {
      ++cases;
      EXPECT_GT(testcase.attribute("time").as_double(), 0.0);
    }
  }
  EXPECT_EQ(cases, 6);
  EXPECT_EQ(suites, (std::vector<std::string>{"audit.part", "audit.range", "audit.etag",
                                              "audit.exit-status"}));
  EXPECT_STREQ(root.find_child_by_attribute("testsuite", "name", "audit.exit-status")
                   .child("testcase")
                   .child("failure")
                   .attribute("message")
                   .as_string(),
               "exit status 1: 1 MUST check not met");
  const auto failed = root.find_node([](pugi::xml_node node) {
    return std::string_view(node.name()) == "testcase" &&
           std::string_view(node.attribute("name").as_string()) == "part.b [SHOULD]";
  });
  ASSERT_TRUE(failed);
  EXPECT_STREQ(failed.child("failure").attribute("type").as_string(), "FAIL");
  EXPECT_NE(std::string(failed.child("failure").text().as_string()).find("clause & <text>"),
            std::string::npos);
  const auto deviated = root.find_node([](pugi::xml_node node) {
    return std::string_view(node.attribute("name").as_string()) == "range.c [MUST]";
  });
  EXPECT_STREQ(deviated.child("failure").attribute("type").as_string(), "DEVIATION");
  const auto skipped = root.find_node([](pugi::xml_node node) {
    return std::string_view(node.attribute("name").as_string()) == "range.d [MAY]";
  });
  EXPECT_STREQ(skipped.child("skipped").attribute("message").as_string(), "because");
}

TEST(JunitReport, AnInterruptedAuditHasAnErrorForEachCheckNotRunAndForItsExitStatus) {
  auto report = sample(false);
  report.interrupted = true;
  report.checks_selected = 7;
  report.cut_off = {{"etag.z", "etag", "z", level::must, "", {}, 0},
                    {"cond.y", "cond", "y", level::must, "", {}, 0}};
  const auto json = nlohmann::json::parse(json_report(report));
  EXPECT_EQ(json["summary"]["exit_status"], 130);
  EXPECT_EQ(json["summary"]["exit_reason"], "interrupted after 5 of 7 checks; 2 did not run");
  EXPECT_EQ(json["cut_off_checks"], nlohmann::json::array({"etag.z", "cond.y"}));
  pugi::xml_document document;
  ASSERT_TRUE(document.load_string(junit_report(report).c_str()));
  const auto root = document.child("testsuites");
  EXPECT_EQ(root.attribute("errors").as_int(), 4); // the ERROR check, two not run, exit status
  const auto not_run = root.find_node([](pugi::xml_node node) {
    return std::string_view(node.attribute("name").as_string()) == "cond.y [MUST]";
  });
  EXPECT_STREQ(not_run.child("error").attribute("type").as_string(), "INTERRUPTED");
  EXPECT_STREQ(root.find_child_by_attribute("testsuite", "name", "audit.exit-status")
                   .child("testcase")
                   .child("error")
                   .attribute("type")
                   .as_string(),
               "INTERRUPTED");
}

TEST(JunitReport, AnAuditThatCouldNotRunSaysSo) {
  audit_report report;
  report.error = "--checks: no check matches 'part.stauts' (nearest: part.status)";
  EXPECT_EQ(audit_exit_status(report), 2);
  pugi::xml_document document;
  ASSERT_TRUE(document.load_string(junit_report(report).c_str()));
  EXPECT_STREQ(document.child("testsuites")
                   .child("testsuite")
                   .child("testcase")
                   .child("error")
                   .attribute("message")
                   .as_string(),
               "exit status 2: the audit could not run: --checks: no check matches "
               "'part.stauts' (nearest: part.status)");
}

TEST(TextReport, ClosingLinesCountAndNameWhatFailed) {
  std::ostringstream out;
  text_report table(out, false);
  const auto report = sample(false);
  for (const auto& r : report.results) {
    table.check_done(r);
  }
  table.finish(report);
  const auto text = out.str();
  EXPECT_NE(text.find("1 passed, 1 failed, 1 deviation, 1 skipped, 1 error (5 checks"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("1 MUST check not met: range.c"), std::string::npos) << text;
  EXPECT_NE(text.find("expected x-amz-mp-parts-count: 3"), std::string::npos) << text;
  EXPECT_NE(text.find("observed no x-amz-mp-parts-count"), std::string::npos) << text;
  EXPECT_EQ(text.find("\x1b["), std::string::npos) << "no colour when not asked";
}

TEST(TextReport, ColourOnlyWhenAsked) {
  std::ostringstream out;
  text_report table(out, true);
  table.check_done(result("part.a", level::must, verdict::pass));
  EXPECT_NE(out.str().find("\x1b[32mPASS"), std::string::npos) << out.str();
}

} // namespace
} // namespace s3fault::audit
