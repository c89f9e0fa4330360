#include "conformance/audit/audit_reports.hpp"
#include "conformance/audit/junit_exit_status.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <map>
#include <sstream>

namespace s3fault::audit {
namespace {

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

void add_testcase(pugi::xml_node suite, const check_result& result) {
  auto testcase = suite.append_child("testcase");
  testcase.append_attribute("classname") = ("audit." + result.area).c_str();
  testcase.append_attribute("name") =
      (result.id + " [" + std::string(to_string(result.strength)) + "]").c_str();
  testcase.append_attribute("time") = result.seconds;
  switch (result.outcome.result) {
  case verdict::pass:
    break;
  case verdict::fail:
  case verdict::deviation: {
    auto failure = testcase.append_child("failure");
    failure.append_attribute("type") = std::string(to_string(result.outcome.result)).c_str();
    failure.append_attribute("message") = (std::string(to_string(result.outcome.result)) + " " +
                                           result.title + ": " + first_line(result))
                                              .c_str();
    failure.text() = unmet_text(result).c_str();
    break;
  }
  case verdict::error: {
    auto error = testcase.append_child("error");
    error.append_attribute("message") = result.outcome.reason.c_str();
    break;
  }
  case verdict::skip:
    testcase.append_child("skipped").append_attribute("message") = result.outcome.reason.c_str();
    break;
  }
}

/// A check an interruption left unrun: an error, so that no CI counts it as passed.
void add_cut_off_testcase(pugi::xml_node suite, const check_result& result) {
  auto testcase = suite.append_child("testcase");
  testcase.append_attribute("classname") = ("audit." + result.area).c_str();
  testcase.append_attribute("name") =
      (result.id + " [" + std::string(to_string(result.strength)) + "]").c_str();
  testcase.append_attribute("time") = 0;
  auto error = testcase.append_child("error");
  error.append_attribute("type") = "INTERRUPTED";
  error.append_attribute("message") = "not run: the audit was interrupted";
}

} // namespace

std::string junit_report(const audit_report& report) {
  pugi::xml_document document;
  auto declaration = document.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";
  const auto totals = count_verdicts(report);
  auto root = document.append_child("testsuites");
  root.append_attribute("name") = ("s3fault audit of " + report.endpoint).c_str();
  root.append_attribute("tests") = report.results.size() + report.cut_off.size();
  root.append_attribute("failures") = totals.failed + totals.deviations;
  root.append_attribute("errors") = totals.errors + report.cut_off.size();
  root.append_attribute("skipped") = totals.skipped;
  root.append_attribute("time") = report.seconds;

  // One testsuite per area, in catalog order.
  std::vector<std::string> areas;
  for (const auto* results : {&report.results, &report.cut_off}) {
    for (const auto& result : *results) {
      if (std::find(areas.begin(), areas.end(), result.area) == areas.end()) {
        areas.push_back(result.area);
      }
    }
  }
  for (const auto& area : areas) {
    auto suite = root.append_child("testsuite");
    std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
    double seconds = 0;
    suite.append_attribute("name") = ("audit." + area).c_str();
    for (const auto& result : report.results) {
      if (result.area != area) {
        continue;
      }
      ++tests;
      seconds += result.seconds;
      failures +=
          result.outcome.result == verdict::fail || result.outcome.result == verdict::deviation;
      errors += result.outcome.result == verdict::error;
      skipped += result.outcome.result == verdict::skip;
      add_testcase(suite, result);
    }
    for (const auto& result : report.cut_off) {
      if (result.area == area) {
        ++tests;
        ++errors;
        add_cut_off_testcase(suite, result);
      }
    }
    suite.append_attribute("tests") = tests;
    suite.append_attribute("failures") = failures;
    suite.append_attribute("errors") = errors;
    suite.append_attribute("skipped") = skipped;
    suite.append_attribute("time") = seconds;
    suite.append_attribute("timestamp") = report.started_at.c_str();
  }
  add_exit_status_suite(root, "audit", audit_exit_status(report), audit_exit_reason(report),
                        report.seconds);
  std::ostringstream out;
  document.save(out, "  ");
  return out.str();
}

} // namespace s3fault::audit
