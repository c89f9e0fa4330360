#pragma once
// A gate's JSON report (gate_json_report) read back into a gate_report, for `s3fault gate merge`:
// writing what is read gives the same JSON again. The scenarios and shapes the report points to
// are rebuilt from the JSON and owned by the report (gate_report::matrix_read).
#include "conformance/gate/gate_runner.hpp"

#include <nlohmann/json.hpp>

namespace s3fault::gate {

/// The report `document` holds. Throws std::invalid_argument naming the field that is missing
/// or wrong ("runs[3].verdict: 'MAYBE' is not a verdict"); a report without "format" (older than
/// format 2) is refused as such.
gate_report read_gate_report(const nlohmann::json& document);

} // namespace s3fault::gate
