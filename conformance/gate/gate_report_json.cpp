#include "conformance/gate/gate_reports.hpp"
#include "conformance/report/json_text.hpp"
#include "runtime/build_info.hpp"

#include <nlohmann/json.hpp>

namespace s3fault::gate {
namespace {

nlohmann::json traffic_json(const traffic& seen) {
  return {{"requests", seen.requests},
          {"requests_to_proxy", seen.requests_to_proxy},
          {"by_operation", seen.by_operation},
          {"retries", seen.retries},
          {"faults_injected", seen.faults_injected},
          {"faults_on_object", seen.faults_on_object},
          {"errors", seen.errors},
          {"bytes_to_reader", seen.bytes_to_reader},
          {"bytes_from_reader", seen.bytes_from_reader}};
}

nlohmann::json open_uploads_json(const run_result& run) {
  if (run.open_uploads) {
    return *run.open_uploads;
  }
  return run.open_uploads_problem.empty() ? nlohmann::json(nullptr)
                                          : nlohmann::json({{"unknown", run.open_uploads_problem}});
}

nlohmann::json run_json(const run_result& run, run_role role, bool sharded) {
  nlohmann::json document = {{"scenario", run.scenario},
                             {"shape", run.shape},
                             {"expectation", to_string(run.expect)},
                             {"verdict", to_string(run.judged.result)},
                             {"observed_verdict", to_string(run.judged.observed)},
                             {"outcome", to_string(run.judged.outcome)},
                             {"passed", run.judged.passed()},
                             {"why", run.judged.why},
                             {"key", run.key},
                             {"seed", run.seed},
                             {"checksum", run.checksum.empty() ? "none" : run.checksum},
                             {"rules", run.rules},
                             {"expected_bytes", run.judged.expected_bytes},
                             {"actual_bytes", run.judged.actual_bytes},
                             {"first_difference", run.judged.first_difference
                                                      ? nlohmann::json(*run.judged.first_difference)
                                                      : nlohmann::json(nullptr)},
                             {"exit_code", run.exit_code},
                             {"seconds", run.seconds},
                             {std::string(role_name(role)) + "_stderr_tail", run.stderr_tail},
                             {"traffic", traffic_json(run.seen)},
                             {"repro", report::text_or_null(run.repro)},
                             {"repro_file", report::text_or_null(run.repro_file)},
                             {"kept", report::text_or_null(run.kept)}};
  if (role == run_role::writer) {
    document["open_uploads"] = open_uploads_json(run); // a count, or {"unknown": why}
  }
  if (sharded) {
    document["owned"] = run.owned; // false: a dependency baseline another shard owns
  }
  return document;
}

nlohmann::json shard_json(const runtime::shard& part) {
  return {{"index", part.index}, {"count", part.count}, {"source", part.source}};
}

/// What `gate merge` needs beyond the runs: which shard owns each run of the whole plan, or
/// which shards a merged report was made from.
void add_shard_fields(const gate_report& report, nlohmann::json& document) {
  if (report.shard.sharded()) {
    document["shard"] = shard_json(report.shard);
    nlohmann::json plan = nlohmann::json::array();
    for (const auto& owner : report.owners) {
      plan.push_back({{"key", owner.key}, {"shard", owner.shard}});
    }
    document["plan"] = plan;
  }
  if (!report.parts.empty()) {
    document["shards"] = report.parts.front().shard.count;
    nlohmann::json parts = nlohmann::json::array();
    for (const auto& part : report.parts) {
      parts.push_back({{"file", part.file},
                       {"shard", part.shard.text()},
                       {"source", part.shard.source},
                       {"started_at", part.started_at},
                       {"seconds", part.seconds}});
    }
    document["parts"] = parts;
  }
}

/// Verdicts of the role's runs, counted.
nlohmann::json verdict_counts(run_role role, const verdict_tally& tally) {
  if (role == run_role::writer) {
    return {{"STORED", tally.stored},
            {"REJECTED", tally.rejected},
            {"SILENT_LOSS", tally.silent_loss},
            {"TORN", tally.torn},
            {"HUNG", tally.hung}};
  }
  return {{"CORRECT", tally.correct},
          {"REJECTED", tally.rejected},
          {"SILENT_CORRUPTION", tally.silent_corruption},
          {"HUNG", tally.hung}};
}

nlohmann::json coverage_count_json(const coverage_count& count) {
  return {{"runs", count.runs},
          {"judged", count.judged},
          {"not_exercised", count.not_exercised},
          {"not_judged", count.not_judged}};
}

/// How much of the gate said something: all runs, per expectation and per scenario, and the
/// --max-not-exercised limit.
nlohmann::json coverage_json(const gate_report& report) {
  const auto coverage = count_coverage(report);
  nlohmann::json by_expectation = nlohmann::json::object();
  for (const auto& [expect, count] : coverage.by_expectation) {
    by_expectation[std::string(to_string(expect))] = coverage_count_json(count);
  }
  nlohmann::json by_scenario = nlohmann::json::object();
  for (const auto& [name, count] : coverage.by_scenario) {
    by_scenario[name] = coverage_count_json(count);
  }
  auto document = coverage_count_json(coverage.all);
  document["max_not_exercised"] = report.max_not_exercised
                                      ? nlohmann::json(report.max_not_exercised->text)
                                      : nlohmann::json(nullptr);
  document["limit_exceeded"] = coverage.limit_exceeded;
  document["by_expectation"] = by_expectation;
  document["by_scenario"] = by_scenario;
  return document;
}

nlohmann::json scenario_json(const scenario& s) {
  nlohmann::json timeout = nullptr; // the gate's --timeout
  if (s.timeout) {
    timeout = std::chrono::duration<double>(*s.timeout).count();
  }
  return {{"name", s.name},
          {"description", s.description},
          {"expectation", to_string(s.expect)},
          {"rules", s.rules_text},
          {"shapes", s.shape_globs},
          {"multipart_only", s.multipart_only},
          {"needs_injection", s.needs_injection},
          {"action", to_string(s.action)},
          {"timeout_seconds", timeout},
          {"why", s.why},
          {"defined_at", s.origin}};
}

nlohmann::json shape_json(const object_shape& shape) {
  return {{"name", shape.name},         {"description", shape.description},
          {"size", shape.size},         {"parts", shape.part_sizes},
          {"checksum", shape.checksum}, {"content_type", shape.content_type},
          {"defined_at", shape.origin}};
}

} // namespace

std::string gate_json_report(const gate_report& report) {
  const auto totals = count_runs(report);
  nlohmann::json scenario_list = nlohmann::json::array();
  for (const auto* s : report.scenarios) {
    scenario_list.push_back(scenario_json(*s));
  }
  nlohmann::json shape_list = nlohmann::json::array();
  for (const auto* shape : report.shapes) {
    shape_list.push_back(shape_json(*shape));
  }
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& run : report.runs) {
    runs.push_back(run_json(run, report.role, report.shard.sharded()));
  }
  nlohmann::json unplanned = nlohmann::json::array();
  for (const auto& each : report.unplanned) {
    unplanned.push_back({{"scenario", each.selected->name}, {"reason", each.reason}});
  }
  nlohmann::json cut_off = nlohmann::json::array();
  for (const auto& run : report.cut_off) {
    cut_off.push_back({{"scenario", run.scenario}, {"shape", run.shape}, {"key", run.key}});
  }
  nlohmann::json document = {
      {"tool", "s3fault gate"},
      {"format", gate_json_format},
      {"version", std::string(runtime::build_version())},
      {"role", role_name(report.role)},
      {role_name(report.role), report.client},
      {"upstream", report.upstream},
      {"store", report::text_or_null(report.store)},
      {"region", report::text_or_null(report.region)},
      {"working_dir", report::text_or_null(report.working_dir)},
      {"started_at", report.started_at},
      {"seconds", report.seconds},
      {"timeout_seconds", report.timeout_seconds},
      {"jobs", report.jobs},
      {"seed", report.seed},
      {"selection",
       {{"scenarios", report.scenario_globs},
        {"shapes", report.shape_globs},
        {"exclude", report.exclude_globs}}},
      {"max_not_exercised", report.max_not_exercised
                                ? nlohmann::json(report.max_not_exercised->text)
                                : nlohmann::json(nullptr)},
      {"interrupted", report.interrupted},
      {"error", report::text_or_null(report.error)},
      {"summary",
       {{"runs", totals.runs()},
        {"runs_planned", report.runs_planned},
        {"passed", totals.passed},
        {"failed", totals.failed},
        {"not_exercised", totals.not_exercised},
        {"not_judged", totals.not_judged},
        {"verdicts", verdict_counts(report.role, totals.observed)},
        {"judged_verdicts", verdict_counts(report.role, totals.judged)},
        {"coverage", coverage_json(report)},
        {"exit_status", gate_exit_status(report)},
        {"exit_reason", exit_status_reason(report)}}},
      {"scenarios", scenario_list},
      {"shapes", shape_list},
      {"unplanned_scenarios", unplanned},
      {"runs", runs},
      {"cut_off_runs", cut_off}};
  add_shard_fields(report, document);
  return report::json_text(document);
}

} // namespace s3fault::gate
