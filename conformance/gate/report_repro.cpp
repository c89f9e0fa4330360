#include "conformance/gate/report_repro.hpp"

#include <algorithm>

namespace s3fault::gate {

const run_result* find_report_run(const gate_report& report, const std::string& name) {
  const auto named = [&](const run_result& run) {
    return run.key == name || run.scenario + "/" + run.shape == name;
  };
  // A shard's own run before the baseline it made only to judge its runs (owned: false).
  const auto owned = std::find_if(report.runs.begin(), report.runs.end(),
                                  [&](const auto& run) { return run.owned && named(run); });
  if (owned != report.runs.end()) {
    return &*owned;
  }
  const auto any = std::find_if(report.runs.begin(), report.runs.end(), named);
  return any != report.runs.end() ? &*any : nullptr;
}

std::optional<repro_inputs> report_run_repro(const gate_report& report, const run_result& run,
                                             const repro_machine& machine, std::string& problem) {
  const std::string name = run.scenario + "/" + run.shape;
  if (run.judged.outcome == run_outcome::not_judged) {
    problem = "run " + name + " was not made (NOT_JUDGED: " + run.judged.why +
              "); its shape's baseline is the run to reproduce: baseline/" + run.shape;
    return std::nullopt;
  }
  const auto scenario = std::find_if(report.scenarios.begin(), report.scenarios.end(),
                                     [&](const auto* s) { return s->name == run.scenario; });
  const auto shape = std::find_if(report.shapes.begin(), report.shapes.end(),
                                  [&](const auto* each) { return each->name == run.shape; });
  if (scenario == report.scenarios.end() || shape == report.shapes.end()) {
    problem = "run " + name + ": the report does not define its " +
              (scenario == report.scenarios.end() ? "scenario" : "shape");
    return std::nullopt;
  }
  repro_inputs in;
  in.s3fault = machine.s3fault;
  const bool embedded = report.upstream.empty() || report.upstream == "embedded origin";
  in.store = embedded ? "" : report.upstream;
  in.access_key = embedded ? machine.embedded_credentials.access_key : "";
  in.secret_key = embedded ? machine.embedded_credentials.secret_key : "";
  in.region = report.region.empty() ? "us-east-1" : report.region;
  in.key = run.key;
  in.run_scenario = *scenario;
  in.shape = *shape;
  in.seed = run.seed;
  in.rules_document = run.rules;
  in.role = report.role;
  in.client = report.client;
  in.client_command = machine.client_command(report.client);
  in.working_dir = machine.working_dir;
  in.timeout_seconds = (*scenario)->timeout
                           ? std::chrono::duration<double>(*(*scenario)->timeout).count()
                           : report.timeout_seconds;
  in.gate_verdict = run.judged.result;
  in.why = run.judged.why;
  in.outcome = run.judged.outcome;
  in.observed = run.judged.observed;
  return in;
}

} // namespace s3fault::gate
