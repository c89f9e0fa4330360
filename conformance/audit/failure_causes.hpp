#pragma once
// Why checks fail, for the store's author: one store defect usually fails several checks (RGW
// ignoring ?partNumber= fails 17 part.* checks). The catalog's cause table names, by check id,
// the defect each check's failure points to and one line saying what to change; the reports
// group the failed checks by it and put first the causes that decide the exit status.
#include "conformance/audit/audit_types.hpp"

#include <string>
#include <string_view>
#include <vector>

namespace s3fault::audit {

/// One entry of the cause table: the checks whose failure it explains and what to change.
struct failure_cause {
  std::string_view id;  // "part-number-reads"
  std::string_view fix; // one line a store author can act on
  std::vector<std::string_view> checks;
};

/// The cause table, keyed by check id (a unit test holds every id to the catalog, and each
/// check to at most one cause). A check it does not name is a cause of its own.
const std::vector<failure_cause>& failure_causes();

/// The failed checks (FAIL and DEVIATION) of one cause, in catalog order.
struct cause_group {
  std::string id;  // the table's id, or the check's own id when the table does not name it
  std::string fix; // the table's line, or the check's title
  std::vector<const check_result*> checks;
  std::size_t gating = 0; // how many of them decide the exit status
  std::size_t rank = 0;   // 1, 2, ... for the causes to fix first (gating > 0); 0 for the rest
};

/// The report's failures by cause: first the causes with gating failures (most first), then
/// the others (most failed checks first); ties in catalog order. Pointers into `report`.
std::vector<cause_group> group_failures_by_cause(const audit_report& report);

} // namespace s3fault::audit
