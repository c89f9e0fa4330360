#include "conformance/report/junit_document.hpp"

#include <pugixml.hpp>

#include <sstream>

namespace s3fault::report {
namespace {

/// The element each junit_outcome is written as, in the enum's order (a pass: its output, if any).
constexpr const char* outcome_elements[] = {"system-out", "failure", "error", "skipped"};

void write_testcase(pugi::xml_node suite, const junit_testcase& testcase) {
  auto node = suite.append_child("testcase");
  node.append_attribute("classname") = testcase.classname.c_str();
  node.append_attribute("name") = testcase.name.c_str();
  node.append_attribute("time") = testcase.seconds;
  if (!testcase.properties.empty()) {
    auto properties = node.append_child("properties");
    for (const auto& [name, value] : testcase.properties) {
      auto property = properties.append_child("property");
      property.append_attribute("name") = name.c_str();
      property.append_attribute("value") = value.c_str();
    }
  }
  if (testcase.outcome == junit_outcome::passed) {
    if (!testcase.text.empty()) {
      node.append_child("system-out").text() = testcase.text.c_str();
    }
    return;
  }
  auto outcome = node.append_child(outcome_elements[static_cast<int>(testcase.outcome)]);
  if (!testcase.type.empty()) {
    outcome.append_attribute("type") = testcase.type.c_str();
  }
  outcome.append_attribute("message") = testcase.message.c_str();
  if (!testcase.text.empty()) {
    outcome.text() = testcase.text.c_str();
  }
}

junit_counts count_testcases(const junit_testsuite& suite) {
  junit_counts counts;
  for (const auto& testcase : suite.testcases) {
    ++counts.tests;
    counts.failures += testcase.outcome == junit_outcome::failure;
    counts.errors += testcase.outcome == junit_outcome::error;
    counts.skipped += testcase.outcome == junit_outcome::skipped;
  }
  return counts;
}

void write_counts(pugi::xml_node node, const junit_counts& counts) {
  node.append_attribute("tests") = counts.tests;
  node.append_attribute("failures") = counts.failures;
  node.append_attribute("errors") = counts.errors;
  node.append_attribute("skipped") = counts.skipped;
}

void write_testsuite(pugi::xml_node root, const junit_testsuite& suite) {
  auto node = root.append_child("testsuite");
  node.append_attribute("name") = suite.name.c_str();
  write_counts(node, count_testcases(suite));
  double seconds = 0;
  for (const auto& testcase : suite.testcases) {
    seconds += testcase.seconds;
  }
  node.append_attribute("time") = seconds;
  if (!suite.timestamp.empty()) {
    node.append_attribute("timestamp") = suite.timestamp.c_str();
  }
  for (const auto& testcase : suite.testcases) {
    write_testcase(node, testcase);
  }
}

const char* exit_status_type(int status) {
  switch (status) {
  case 1:
    return "FAILED";
  case 2:
    return "COULD_NOT_RUN";
  case 130:
    return "INTERRUPTED";
  default:
    return "EXIT_STATUS";
  }
}

junit_testsuite exit_status_suite(const junit_exit_status& exit, double seconds) {
  const std::string name = exit.tool + ".exit-status";
  junit_testcase testcase{name, "exit status", seconds};
  testcase.outcome = exit.status == 0   ? junit_outcome::passed
                     : exit.status == 1 ? junit_outcome::failure
                                        : junit_outcome::error;
  const std::string message = "exit status " + std::to_string(exit.status) + ": " + exit.reason;
  if (exit.status == 0) {
    testcase.text = message;
  } else {
    testcase.type = exit_status_type(exit.status);
    testcase.message = message;
  }
  return {name, "", {testcase}};
}

} // namespace

std::string junit_xml(const junit_document& document) {
  pugi::xml_document xml;
  auto declaration = xml.append_child(pugi::node_declaration);
  declaration.append_attribute("version") = "1.0";
  declaration.append_attribute("encoding") = "UTF-8";
  const auto exit_suite = exit_status_suite(document.exit, document.seconds);
  const auto exit_counts = count_testcases(exit_suite);
  auto root = xml.append_child("testsuites");
  root.append_attribute("name") = document.name.c_str();
  write_counts(root, {document.counts.tests + exit_counts.tests,
                      document.counts.failures + exit_counts.failures,
                      document.counts.errors + exit_counts.errors, document.counts.skipped});
  root.append_attribute("time") = document.seconds;
  for (const auto& suite : document.suites) {
    write_testsuite(root, suite);
  }
  write_testsuite(root, exit_suite);
  std::ostringstream out;
  xml.save(out, "  ");
  return out.str();
}

} // namespace s3fault::report
