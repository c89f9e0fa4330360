#pragma once
// The JUnit XML that the audit and the gate write for CI. They describe their testsuites and
// testcases; this writes them (pugixml escapes every name, message and text) and adds the suite
// "<tool>.exit-status", so that a CI that reads only the JUnit file sees red exactly when the
// process's exit status says so: nothing judged, an interrupted run or a job that could not run
// would otherwise look green (no failing testcase).
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace s3fault::report {

/// How a testcase ended, which is the child element it gets (none for a plain pass).
enum class junit_outcome { passed, failure, error, skipped };

struct junit_testcase {
  junit_testcase() = default;
  /// A passing testcase; the caller sets the rest.
  junit_testcase(std::string classname, std::string name, double seconds)
      : classname(std::move(classname)), name(std::move(name)), seconds(seconds) {}

  std::string classname;
  std::string name;
  double seconds = 0;
  /// <properties>, written when there are any: name and value.
  std::vector<std::pair<std::string, std::string>> properties;
  junit_outcome outcome = junit_outcome::passed;
  std::string type;    // the outcome element's type attribute, when not empty
  std::string message; // the message attribute of <failure>, <error> and <skipped>
  /// A failure's text, or a pass's <system-out>; written when not empty.
  std::string text;
};

/// A testsuite: its counts and time are those of its testcases.
struct junit_testsuite {
  std::string name;
  std::string timestamp; // written when not empty
  std::vector<junit_testcase> testcases;
};

/// What the top element counts: the report's own totals (the exit-status testcase is added).
struct junit_counts {
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
};

/// How the job ended: `tool` names the suite "<tool>.exit-status"; 0 passes, 1 is a <failure>,
/// any other status an <error> (2: the job could not judge, 130: it was interrupted). The
/// message is "exit status N: REASON".
struct junit_exit_status {
  std::string tool;
  int status = 0;
  std::string reason;
};

struct junit_document {
  std::string name; // the <testsuites> name
  double seconds = 0;
  junit_counts counts;
  std::vector<junit_testsuite> suites;
  junit_exit_status exit;
};

/// The document as JUnit XML (UTF-8, two-space indentation), the exit-status suite last.
std::string junit_xml(const junit_document& document);

} // namespace s3fault::report
