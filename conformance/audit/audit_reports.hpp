#pragma once
// The audit's three outputs, all from the same audit_report: a table for people (grouped by
// area, colour on a terminal, printed as checks finish), JSON for tools, JUnit XML for CI (one
// testcase per check).
#include "conformance/audit/audit_types.hpp"
#include "conformance/report/table_text.hpp"

#include <ostream>
#include <string>

namespace s3fault::audit {

/// The process's exit status, and what every report says: 2 when the audit could not run, 130
/// when it was interrupted, 0 when every MUST (with strict, every SHOULD too) passed or was
/// skipped, else 1.
int audit_exit_status(const audit_report& report);
/// One line on why the exit status is what it is.
std::string audit_exit_reason(const audit_report& report);

/// Prints the table as results arrive: an area heading when the area changes, one line per
/// check, and for anything but PASS the reason and the expectations that were not met.
class text_report {
public:
  text_report(std::ostream& out, bool colour) : out_(out), paint_(colour) {}
  void begin(const std::string& endpoint, const std::string& bucket);
  void check_done(const check_result& result);
  /// The closing lines: the failures by cause, "N passed, N failed, ..." and what decided the
  /// exit status.
  void finish(const audit_report& report);

private:
  /// The failed checks by cause (failure_causes.hpp), the causes to fix first numbered.
  void print_causes(const audit_report& report);

  std::ostream& out_;
  report::painter paint_;
  std::string area_;
};

/// The report as a JSON document (every expectation and exchange included).
std::string json_report(const audit_report& report);
/// The report as JUnit XML: FAIL and DEVIATION are <failure>, ERROR is <error>, SKIP is
/// <skipped>; the level is in each testcase's name and message.
std::string junit_report(const audit_report& report);

} // namespace s3fault::audit
