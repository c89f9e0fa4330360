#include "conformance/gate/gate_reports.hpp"

#include <pugixml.hpp>

#include <sstream>

namespace s3fault::gate {

std::string gate_junit_report(const gate_report& report) {
  pugi::xml_document document;
  auto declaration = document.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";
  const auto totals = count_runs(report);
  auto root = document.append_child("testsuites");
  root.append_attribute("name") = ("s3fault gate of " + report.reader).c_str();
  root.append_attribute("tests") = report.runs.size();
  root.append_attribute("failures") = totals.failed;
  root.append_attribute("errors") = 0;
  root.append_attribute("time") = report.seconds;
  for (const auto& name : report.scenario_names) {
    auto suite = root.append_child("testsuite");
    suite.append_attribute("name") = ("gate." + name).c_str();
    std::size_t tests = 0, failures = 0;
    double seconds = 0;
    for (const auto& run : report.runs) {
      if (run.scenario != name) {
        continue;
      }
      ++tests;
      seconds += run.seconds;
      auto testcase = suite.append_child("testcase");
      testcase.append_attribute("classname") = ("gate." + name).c_str();
      testcase.append_attribute("name") =
          (run.shape + " [" + std::string(to_string(run.expect)) + "]").c_str();
      testcase.append_attribute("time") = run.seconds;
      const std::string summary = std::string(to_string(run.judged.result)) + ": " +
                                  run.judged.why + "; " + describe_traffic(run.seen);
      if (!run.judged.passed) {
        ++failures;
        auto failure = testcase.append_child("failure");
        failure.append_attribute("type") = std::string(to_string(run.judged.result)).c_str();
        failure.append_attribute("message") = summary.c_str();
        failure.text() = (summary + "\nreader stderr (tail):\n" + run.stderr_tail).c_str();
      } else {
        testcase.append_child("system-out").text() = summary.c_str();
      }
    }
    suite.append_attribute("tests") = tests;
    suite.append_attribute("failures") = failures;
    suite.append_attribute("errors") = 0;
    suite.append_attribute("time") = seconds;
  }
  std::ostringstream out;
  document.save(out, "  ");
  return out.str();
}

} // namespace s3fault::gate
