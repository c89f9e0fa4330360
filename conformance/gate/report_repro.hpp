#pragma once
// The repro.sh of any run of a gate's JSON report (`s3fault gate repro REPORT RUN`): a passing or
// not exercised run as much as a failing one, so that a user who doubts a pass can make it again
// without building store, object and proxy by hand. The inputs are those the gate gave
// run_repro for its failing runs, rebuilt from the report (gate_report_read.hpp).
#include "conformance/gate/gate_runner.hpp"
#include "conformance/gate/run_repro.hpp"

#include <optional>
#include <string>

namespace s3fault::gate {

/// What the report does not say and this machine does.
struct repro_machine {
  std::string s3fault;                  // this binary's absolute path
  std::string working_dir;              // where relative paths of the client's command are found
  s3::credentials embedded_credentials; // the embedded origin's well-known keys
  /// `builtin:NAME` as this binary runs it; anything else is the command itself.
  std::function<std::string(const std::string& client)> client_command;
};

/// The run `name` of `report`: "SCENARIO/SHAPE" or its key ("gate/SCENARIO/SHAPE").
const run_result* find_report_run(const gate_report& report, const std::string& name);

/// The inputs of the run's repro.sh, or nullopt with why in `problem` (a run not judged was never
/// made; its scenario or shape is not in the report).
std::optional<repro_inputs> report_run_repro(const gate_report& report, const run_result& run,
                                             const repro_machine& machine, std::string& problem);

} // namespace s3fault::gate
