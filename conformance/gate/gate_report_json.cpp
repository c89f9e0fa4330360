#include "conformance/gate/gate_reports.hpp"

#include "conformance/gate/object_shapes.hpp"

#include <nlohmann/json.hpp>

namespace s3fault::gate {
namespace {

nlohmann::json traffic_json(const traffic& seen) {
  return {{"requests", seen.requests},
          {"by_operation", seen.by_operation},
          {"retries", seen.retries},
          {"faults_injected", seen.faults_injected},
          {"errors", seen.errors},
          {"bytes_to_reader", seen.bytes_to_reader},
          {"bytes_from_reader", seen.bytes_from_reader}};
}

nlohmann::json run_json(const run_result& run) {
  return {{"scenario", run.scenario},
          {"shape", run.shape},
          {"expectation", to_string(run.expect)},
          {"verdict", to_string(run.judged.result)},
          {"passed", run.judged.passed},
          {"why", run.judged.why},
          {"expected_bytes", run.judged.expected_bytes},
          {"actual_bytes", run.judged.actual_bytes},
          {"first_difference", run.judged.first_difference
                                   ? nlohmann::json(*run.judged.first_difference)
                                   : nlohmann::json(nullptr)},
          {"exit_code", run.exit_code},
          {"seconds", run.seconds},
          {"reader_stderr_tail", run.stderr_tail},
          {"traffic", traffic_json(run.seen)}};
}

} // namespace

std::string gate_json_report(const gate_report& report) {
  const auto totals = count_runs(report);
  nlohmann::json scenario_list = nlohmann::json::array();
  for (const auto& s : scenarios()) {
    if (std::find(report.scenario_names.begin(), report.scenario_names.end(), s.name) !=
        report.scenario_names.end()) {
      scenario_list.push_back({{"name", s.name},
                               {"title", s.title},
                               {"expectation", to_string(s.expect)},
                               {"rules", s.rules},
                               {"why", s.why}});
    }
  }
  nlohmann::json shape_list = nlohmann::json::array();
  for (const auto& shape : object_shapes()) {
    if (std::find(report.shape_names.begin(), report.shape_names.end(), shape.name) !=
        report.shape_names.end()) {
      shape_list.push_back({{"name", shape.name},
                            {"title", shape.title},
                            {"size", shape.size},
                            {"parts", shape.part_sizes}});
    }
  }
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& run : report.runs) {
    runs.push_back(run_json(run));
  }
  const nlohmann::json document = {{"tool", "s3fault gate"},
                                   {"version", S3FAULT_VERSION},
                                   {"reader", report.reader},
                                   {"upstream", report.upstream},
                                   {"started_at", report.started_at},
                                   {"seconds", report.seconds},
                                   {"timeout_seconds", report.timeout_seconds},
                                   {"interrupted", report.interrupted},
                                   {"summary",
                                    {{"runs", report.runs.size()},
                                     {"passed", totals.passed},
                                     {"failed", totals.failed},
                                     {"verdicts",
                                      {{"CORRECT", totals.correct},
                                       {"REJECTED", totals.rejected},
                                       {"SILENT_CORRUPTION", totals.silent_corruption},
                                       {"HUNG", totals.hung}}},
                                     {"exit_status", gate_exit_status(report)}}},
                                   {"scenarios", scenario_list},
                                   {"shapes", shape_list},
                                   {"runs", runs}};
  return document.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace s3fault::gate
