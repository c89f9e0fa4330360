#include "conformance/audit/junit_exit_status.hpp"

namespace s3fault::audit {
namespace {

void add_to_count(pugi::xml_node node, const char* name, int more) {
  auto attribute = node.attribute(name);
  if (!attribute) {
    attribute = node.append_attribute(name);
    attribute = 0;
  }
  attribute = attribute.as_int() + more;
}

const char* outcome_type(int status) {
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

} // namespace

void add_exit_status_suite(pugi::xml_node root, const std::string& tool, int status,
                           const std::string& reason, double seconds) {
  const std::string name = tool + ".exit-status";
  const std::string message = "exit status " + std::to_string(status) + ": " + reason;
  const bool failure = status == 1;
  const bool error = status != 0 && !failure;
  auto suite = root.append_child("testsuite");
  suite.append_attribute("name") = name.c_str();
  suite.append_attribute("tests") = 1;
  suite.append_attribute("failures") = failure ? 1 : 0;
  suite.append_attribute("errors") = error ? 1 : 0;
  suite.append_attribute("skipped") = 0;
  suite.append_attribute("time") = seconds;
  auto testcase = suite.append_child("testcase");
  testcase.append_attribute("classname") = name.c_str();
  testcase.append_attribute("name") = "exit status";
  testcase.append_attribute("time") = seconds;
  if (status == 0) {
    testcase.append_child("system-out").text() = message.c_str();
  } else {
    auto outcome = testcase.append_child(failure ? "failure" : "error");
    outcome.append_attribute("type") = outcome_type(status);
    outcome.append_attribute("message") = message.c_str();
  }
  add_to_count(root, "tests", 1);
  add_to_count(root, "failures", failure ? 1 : 0);
  add_to_count(root, "errors", error ? 1 : 0);
}

} // namespace s3fault::audit
