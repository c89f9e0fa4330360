// Failures grouped by cause: the audit of Ceph RGW 16.2 (docs/stores/rgw.json) fails 29 checks,
// 17 of them part.* checks that all come from one cause (?partNumber= ignored). Every report
// must say so once, with one line a store author can act on, and list first the causes that
// decide the exit status.
#include "conformance/audit/audit_reports.hpp"
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/failure_causes.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include <algorithm>
#include <set>
#include <sstream>

namespace s3fault::audit {
namespace {

// The checks RGW 16.2.15 failed (docs/stores/rgw.json, 2026-12-01).
const std::vector<std::string> rgw_part_failures = {"part.status",
                                                    "part.content-range",
                                                    "part.content-length",
                                                    "part.count-header",
                                                    "part.reassembly",
                                                    "part.totals-agree",
                                                    "part.head",
                                                    "part.head-count-header",
                                                    "part.single-object-part-one",
                                                    "part.single-object-part-two",
                                                    "part.past-count",
                                                    "part.head-past-count",
                                                    "part.highest-number",
                                                    "part.number-zero",
                                                    "part.number-over-limit",
                                                    "part.number-not-integer",
                                                    "part.with-range"};
const std::vector<std::string> rgw_other_failures = {
    "range.head-ignored",   "cond.if-match-part-read", "cond.304-etag",
    "cond.head-304-etag",   "cond.304-last-modified",  "cond.head-304-last-modified",
    "etag.complete-result", "error.message-text",      "error.resource",
    "version.part-read",    "version.delete-marker",   "upload.complete-unknown-upload"};

/// Every check of the catalog, failed as RGW failed it and passed otherwise.
audit_report rgw_like_audit() {
  std::set<std::string> failed(rgw_part_failures.begin(), rgw_part_failures.end());
  failed.insert(rgw_other_failures.begin(), rgw_other_failures.end());
  audit_report report;
  report.endpoint = "http://127.0.0.1:7480";
  report.bucket = "b";
  for (const auto& check : audit_catalog()) {
    check_result r{check.id, check.area, check.title, check.strength, check.clause, {}, 0.01};
    if (failed.count(check.id) != 0) {
      r.outcome.result = verdict::fail;
      r.outcome.expectations.push_back({"status 206", "status 200", false});
    }
    report.results.push_back(std::move(r));
  }
  report.checks_selected = report.results.size();
  return report;
}

std::vector<std::string> strings_of(const nlohmann::json& list) {
  return list.get<std::vector<std::string>>();
}

TEST(FailureCauses, JsonGroupsThePartFailuresUnderOneCauseListedFirst) {
  const auto document = nlohmann::json::parse(json_report(rgw_like_audit()));
  ASSERT_TRUE(document.contains("causes")) << "no causes in the JSON report";
  const auto& causes = document["causes"];
  const auto part = std::find_if(causes.begin(), causes.end(), [](const nlohmann::json& cause) {
    const auto checks = strings_of(cause["checks"]);
    return std::find(checks.begin(), checks.end(), "part.status") != checks.end();
  });
  ASSERT_NE(part, causes.end());
  auto checks = strings_of((*part)["checks"]);
  for (const auto& id : rgw_part_failures) {
    EXPECT_NE(std::find(checks.begin(), checks.end(), id), checks.end()) << id;
  }
  EXPECT_NE((*part)["fix"].get<std::string>().find("partNumber"), std::string::npos);
  EXPECT_TRUE((*part)["fix_first"].get<bool>());
  EXPECT_EQ(document["summary"]["fix_first"][0], (*part)["cause"]);
  // Every failed check is under exactly one cause, and only failed checks are.
  std::multiset<std::string> grouped;
  for (const auto& cause : causes) {
    for (const auto& id : strings_of(cause["checks"])) {
      grouped.insert(id);
    }
  }
  EXPECT_EQ(grouped.size(), rgw_part_failures.size() + rgw_other_failures.size());
  for (const auto& id : rgw_other_failures) {
    EXPECT_EQ(grouped.count(id), 1u) << id;
  }
}

TEST(FailureCauses, TheTableSaysThePartCauseOnceAndWhatToFixFirst) {
  const auto report = rgw_like_audit();
  std::ostringstream out;
  text_report table(out, false);
  table.finish(report);
  const auto text = out.str();
  const auto first = text.find("fix these first");
  ASSERT_NE(first, std::string::npos) << text;
  // Once among the causes (the closing lines name the checks not met again).
  const auto causes = text.substr(first, text.find(" passed, ") - first);
  const auto part = causes.find("part.status, part.content-range");
  ASSERT_NE(part, std::string::npos) << text;
  EXPECT_EQ(causes.find("part.status, part.content-range", part + 1), std::string::npos) << text;
  EXPECT_NE(text.find("1. part-number"), std::string::npos) << text;
}

TEST(FailureCauses, JunitNamesTheCauseOfEachFailure) {
  pugi::xml_document document;
  const auto xml = junit_report(rgw_like_audit());
  ASSERT_TRUE(document.load_string(xml.c_str())) << xml;
  std::set<std::string> causes_of_part_checks;
  for (const auto& id : rgw_part_failures) {
    const auto testcase = document.find_node([&](pugi::xml_node node) {
      return std::string_view(node.name()) == "testcase" &&
             std::string(node.attribute("name").as_string()).rfind(id + " [", 0) == 0;
    });
    ASSERT_TRUE(testcase) << id;
    const auto cause =
        testcase.child("properties").find_child_by_attribute("property", "name", "cause");
    ASSERT_TRUE(cause) << id << " has no cause property";
    causes_of_part_checks.insert(cause.attribute("value").as_string());
    EXPECT_STREQ(testcase.child("properties")
                     .find_child_by_attribute("property", "name", "fix_first")
                     .attribute("value")
                     .as_string(),
                 "1")
        << id;
  }
  EXPECT_EQ(causes_of_part_checks.size(), 1u);
}

TEST(FailureCauses, TheTableNamesCatalogChecksEachUnderOneCause) {
  std::set<std::string> catalog_ids, seen_causes, seen_checks;
  for (const auto& check : audit_catalog()) {
    catalog_ids.insert(check.id);
  }
  for (const auto& cause : failure_causes()) {
    EXPECT_TRUE(seen_causes.insert(std::string(cause.id)).second) << "cause " << cause.id;
    EXPECT_FALSE(cause.fix.empty()) << cause.id;
    EXPECT_FALSE(cause.checks.empty()) << cause.id;
    for (const auto& id : cause.checks) {
      EXPECT_EQ(catalog_ids.count(std::string(id)), 1u) << cause.id << " names unknown " << id;
      EXPECT_TRUE(seen_checks.insert(std::string(id)).second) << id << " under two causes";
    }
  }
}

TEST(FailureCauses, ACheckTheTableDoesNotNameIsACauseOfItsOwn) {
  audit_report report;
  check_result r{"range.new-check", "range", "A new check", level::should, "", {}, 0};
  r.outcome.result = verdict::deviation;
  report.results = {r};
  const auto groups = group_failures_by_cause(report);
  ASSERT_EQ(groups.size(), 1u);
  EXPECT_EQ(groups[0].id, "range.new-check");
  EXPECT_EQ(groups[0].fix, "A new check");
  EXPECT_EQ(groups[0].rank, 0u); // a SHOULD does not decide the exit status
  report.strict = true;
  EXPECT_EQ(group_failures_by_cause(report)[0].rank, 1u);
}

} // namespace
} // namespace s3fault::audit
