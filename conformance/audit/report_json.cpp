#include "conformance/audit/audit_reports.hpp"
#include "conformance/audit/failure_causes.hpp"
#include "conformance/report/json_text.hpp"
#include "runtime/build_info.hpp"

#include <nlohmann/json.hpp>

namespace s3fault::audit {
namespace {

nlohmann::json exchange_json(const exchange_record& exchange) {
  nlohmann::json headers = nlohmann::json::array();
  for (const auto& [name, value] : exchange.headers) {
    headers.push_back({name, value});
  }
  nlohmann::json entry = {{"request", exchange.request},
                          {"status", exchange.status},
                          {"headers", headers},
                          {"body_bytes", exchange.body_bytes},
                          {"seconds", exchange.seconds}};
  if (!exchange.body_sha256.empty()) {
    entry["body_sha256"] = exchange.body_sha256;
  }
  if (!exchange.error_code.empty()) {
    entry["error_code"] = exchange.error_code;
  }
  if (!exchange.failure.empty()) {
    entry["failure"] = exchange.failure;
  }
  return entry;
}

nlohmann::json result_json(const check_result& result) {
  nlohmann::json expectations = nlohmann::json::array();
  for (const auto& point : result.outcome.expectations) {
    expectations.push_back(
        {{"expected", point.expected}, {"observed", point.observed}, {"met", point.met}});
  }
  nlohmann::json exchanges = nlohmann::json::array();
  for (const auto& exchange : result.outcome.exchanges) {
    exchanges.push_back(exchange_json(exchange));
  }
  return {{"id", result.id},
          {"area", result.area},
          {"title", result.title},
          {"level", to_string(result.strength)},
          {"clause", result.clause},
          {"verdict", to_string(result.outcome.result)},
          {"reason", result.outcome.reason},
          {"seconds", result.seconds},
          {"expectations", expectations},
          {"exchanges", exchanges}};
}

/// The failed checks by cause, the causes to fix first (in that order) first.
nlohmann::json causes_json(const std::vector<cause_group>& groups) {
  nlohmann::json causes = nlohmann::json::array();
  for (const auto& group : groups) {
    nlohmann::json checks = nlohmann::json::array();
    for (const auto* result : group.checks) {
      checks.push_back(result->id);
    }
    causes.push_back({{"cause", group.id},
                      {"fix", group.fix},
                      {"fix_first", group.rank > 0},
                      {"gating", group.gating},
                      {"checks", checks}});
  }
  return causes;
}

} // namespace

std::string json_report(const audit_report& report) {
  const auto totals = count_verdicts(report);
  nlohmann::json not_met = nlohmann::json::array();
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& result : report.results) {
    checks.push_back(result_json(result));
    if (is_gating_failure(result, report.strict)) {
      not_met.push_back(result.id);
    }
  }
  const auto groups = group_failures_by_cause(report);
  nlohmann::json fix_first = nlohmann::json::array();
  for (const auto& group : groups) {
    if (group.rank > 0) {
      fix_first.push_back(group.id);
    }
  }
  nlohmann::json cut_off = nlohmann::json::array();
  for (const auto& result : report.cut_off) {
    cut_off.push_back(result.id);
  }
  const nlohmann::json document = {{"tool", "s3fault audit"},
                                   {"version", std::string(runtime::build_version())},
                                   {"endpoint", report.endpoint},
                                   {"bucket", report.bucket},
                                   {"store_server", report.store_server},
                                   {"started_at", report.started_at},
                                   {"seconds", report.seconds},
                                   {"strict", report.strict},
                                   {"interrupted", report.interrupted},
                                   {"error", report::text_or_null(report.error)},
                                   {"summary",
                                    {{"checks", report.results.size()},
                                     {"passed", totals.passed},
                                     {"failed", totals.failed},
                                     {"deviations", totals.deviations},
                                     {"skipped", totals.skipped},
                                     {"errors", totals.errors},
                                     {"not_met", not_met},
                                     {"fix_first", fix_first},
                                     {"exit_status", audit_exit_status(report)},
                                     {"exit_reason", audit_exit_reason(report)}}},
                                   {"causes", causes_json(groups)},
                                   {"checks", checks},
                                   {"cut_off_checks", cut_off}};
  return report::json_text(document);
}

} // namespace s3fault::audit
