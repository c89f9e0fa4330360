#include "conformance/gate/gate_report_read.hpp"

#include "conformance/gate/gate_reports.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <stdexcept>

namespace s3fault::gate {
namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& where, const std::string& what) {
  throw std::invalid_argument(where + ": " + what);
}

/// `object[name]` as a T; `where` names the object ("runs[3]", empty at the top).
template <typename T> T json_field(const json& object, const std::string& where, const char* name) {
  const std::string place = where.empty() ? name : where + "." + name;
  if (!object.is_object() || !object.contains(name)) {
    refuse(place, "missing");
  }
  try {
    return object.at(name).get<T>();
  } catch (const json::exception&) {
    refuse(place, std::string("has the wrong type (") + object.at(name).type_name() + ")");
  }
}

/// A text that is written as null when empty.
std::string text_or_empty(const json& object, const std::string& where, const char* name) {
  const auto& value = json_field<json>(object, where, name);
  return value.is_null() ? "" : json_field<std::string>(object, where, name);
}

/// A field written with an enum's to_string, read back with its from_string.
template <typename Parse>
auto named_field(const json& object, const std::string& where, const char* name, Parse parse,
                 const char* what) {
  const auto text = json_field<std::string>(object, where, name);
  const auto value = parse(text);
  if (!value) {
    refuse(where + "." + name, "'" + text + "' is not " + what);
  }
  return *value;
}

std::string indexed(const char* list, std::size_t i) {
  return std::string(list) + "[" + std::to_string(i) + "]";
}

scenario scenario_from_json(const json& item, const std::string& where) {
  scenario s;
  s.name = json_field<std::string>(item, where, "name");
  s.description = json_field<std::string>(item, where, "description");
  s.expect = named_field(item, where, "expectation", expectation_from_string, "an expectation");
  s.rules_text = json_field<std::vector<std::string>>(item, where, "rules");
  s.shape_globs = json_field<std::vector<std::string>>(item, where, "shapes");
  s.multipart_only = json_field<bool>(item, where, "multipart_only");
  s.needs_injection = json_field<bool>(item, where, "needs_injection");
  s.action = named_field(item, where, "action", action_from_string, "an action");
  if (const auto& timeout = json_field<json>(item, where, "timeout_seconds"); !timeout.is_null()) {
    s.timeout = std::chrono::milliseconds(
        std::llround(json_field<double>(item, where, "timeout_seconds") * 1000));
  }
  s.why = json_field<std::string>(item, where, "why");
  s.origin = json_field<std::string>(item, where, "defined_at");
  return s;
}

object_shape shape_from_json(const json& item, const std::string& where) {
  object_shape shape;
  shape.name = json_field<std::string>(item, where, "name");
  shape.description = json_field<std::string>(item, where, "description");
  shape.size = json_field<std::uint64_t>(item, where, "size");
  shape.part_sizes = json_field<std::vector<std::uint64_t>>(item, where, "parts");
  shape.checksum = json_field<std::string>(item, where, "checksum");
  shape.content_type = json_field<std::string>(item, where, "content_type");
  shape.origin = json_field<std::string>(item, where, "defined_at");
  return shape;
}

traffic traffic_from_json(const json& item, const std::string& where) {
  traffic seen;
  seen.requests = json_field<std::uint64_t>(item, where, "requests");
  seen.requests_to_proxy = json_field<std::uint64_t>(item, where, "requests_to_proxy");
  seen.by_operation = json_field<std::map<std::string, std::uint64_t>>(item, where, "by_operation");
  seen.retries = json_field<std::uint64_t>(item, where, "retries");
  seen.faults_injected = json_field<std::uint64_t>(item, where, "faults_injected");
  seen.faults_on_object = json_field<std::uint64_t>(item, where, "faults_on_object");
  seen.errors = json_field<std::uint64_t>(item, where, "errors");
  seen.bytes_to_reader = json_field<std::uint64_t>(item, where, "bytes_to_reader");
  seen.bytes_from_reader = json_field<std::uint64_t>(item, where, "bytes_from_reader");
  return seen;
}

/// A writer's open uploads: a count, null, or {"unknown": why}.
void read_open_uploads(const json& item, const std::string& where, run_result& run) {
  const auto& value = json_field<json>(item, where, "open_uploads");
  if (value.is_object()) {
    run.open_uploads_problem = json_field<std::string>(value, where + ".open_uploads", "unknown");
  } else if (!value.is_null()) {
    run.open_uploads = json_field<std::size_t>(item, where, "open_uploads");
  }
}

run_result run_from_json(const json& item, const std::string& where, run_role role) {
  run_result run;
  run.scenario = json_field<std::string>(item, where, "scenario");
  run.shape = json_field<std::string>(item, where, "shape");
  run.expect = named_field(item, where, "expectation", expectation_from_string, "an expectation");
  run.judged.result = named_field(item, where, "verdict", verdict_from_string, "a verdict");
  run.judged.observed =
      named_field(item, where, "observed_verdict", verdict_from_string, "a verdict");
  run.judged.outcome = named_field(item, where, "outcome", outcome_from_string, "an outcome");
  run.judged.why = json_field<std::string>(item, where, "why");
  run.judged.expected_bytes = json_field<std::uint64_t>(item, where, "expected_bytes");
  run.judged.actual_bytes = json_field<std::uint64_t>(item, where, "actual_bytes");
  if (const auto& at = json_field<json>(item, where, "first_difference"); !at.is_null()) {
    run.judged.first_difference = json_field<std::uint64_t>(item, where, "first_difference");
  }
  run.key = json_field<std::string>(item, where, "key");
  run.seed = json_field<std::uint32_t>(item, where, "seed");
  run.checksum = json_field<std::string>(item, where, "checksum");
  if (run.checksum == "none") {
    run.checksum.clear(); // written as "none" when the object was uploaded without one
  }
  run.rules = json_field<json>(item, where, "rules");
  run.exit_code = json_field<int>(item, where, "exit_code");
  run.seconds = json_field<double>(item, where, "seconds");
  const std::string tail = std::string(role_name(role)) + "_stderr_tail";
  run.stderr_tail = json_field<std::string>(item, where, tail.c_str());
  run.seen = traffic_from_json(json_field<json>(item, where, "traffic"), where + ".traffic");
  run.repro = text_or_empty(item, where, "repro");
  run.repro_file = text_or_empty(item, where, "repro_file");
  run.kept = text_or_empty(item, where, "kept");
  if (role == run_role::writer) {
    read_open_uploads(item, where, run);
  }
  run.owned = !item.contains("owned") || json_field<bool>(item, where, "owned");
  return run;
}

/// "2/3" and its source as a shard.
runtime::shard read_shard_text(const std::string& text, const std::string& source,
                               const std::string& where) {
  try {
    auto part = runtime::parse_shard(text, 0, [](const std::string&) { return std::nullopt; });
    part.source = source;
    return part;
  } catch (const std::invalid_argument& bad) {
    refuse(where, bad.what());
  }
}

/// The shard fields: which part of the plan a shard made, or the parts a merged report joins.
void read_shard_fields(const json& document, gate_report& report) {
  if (document.contains("shard")) {
    const auto& shard = json_field<json>(document, "", "shard");
    report.shard.index = json_field<unsigned>(shard, "shard", "index");
    report.shard.count = json_field<unsigned>(shard, "shard", "count");
    report.shard.source = json_field<std::string>(shard, "shard", "source");
    const auto& plan = json_field<json>(document, "", "plan");
    for (std::size_t i = 0; i < plan.size(); ++i) {
      report.owners.push_back({json_field<std::string>(plan[i], indexed("plan", i), "key"),
                               json_field<unsigned>(plan[i], indexed("plan", i), "shard")});
    }
  }
  if (document.contains("parts")) {
    const auto& parts = json_field<json>(document, "", "parts");
    for (std::size_t i = 0; i < parts.size(); ++i) {
      const auto where = indexed("parts", i);
      report.parts.push_back(
          {json_field<std::string>(parts[i], where, "file"),
           read_shard_text(json_field<std::string>(parts[i], where, "shard"),
                           json_field<std::string>(parts[i], where, "source"), where + ".shard"),
           json_field<std::string>(parts[i], where, "started_at"),
           json_field<double>(parts[i], where, "seconds")});
    }
  }
}

/// The scenarios and shapes, owned by the report; the unplanned scenarios point into them.
void read_matrix(const json& document, gate_report& report) {
  auto matrix = std::make_shared<gate_matrix>();
  const auto& scenarios = json_field<json>(document, "", "scenarios");
  for (std::size_t i = 0; i < scenarios.size(); ++i) {
    matrix->scenarios.push_back(scenario_from_json(scenarios[i], indexed("scenarios", i)));
  }
  const auto& shapes = json_field<json>(document, "", "shapes");
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    matrix->shapes.push_back(shape_from_json(shapes[i], indexed("shapes", i)));
  }
  for (const auto& s : matrix->scenarios) {
    report.scenarios.push_back(&s);
  }
  for (const auto& shape : matrix->shapes) {
    report.shapes.push_back(&shape);
  }
  const auto& unplanned = json_field<json>(document, "", "unplanned_scenarios");
  for (std::size_t i = 0; i < unplanned.size(); ++i) {
    const auto where = indexed("unplanned_scenarios", i);
    const auto name = json_field<std::string>(unplanned[i], where, "scenario");
    const auto found = std::find_if(matrix->scenarios.begin(), matrix->scenarios.end(),
                                    [&](const scenario& s) { return s.name == name; });
    if (found == matrix->scenarios.end()) {
      refuse(where + ".scenario", "'" + name + "' is not in scenarios");
    }
    report.unplanned.push_back({&*found, json_field<std::string>(unplanned[i], where, "reason")});
  }
  report.matrix_read = std::move(matrix);
}

} // namespace

gate_report read_gate_report(const json& document) {
  if (!document.is_object() || !document.contains("tool") || document["tool"] != "s3fault gate") {
    throw std::invalid_argument("not the JSON report of s3fault gate (no \"tool\": \"s3fault "
                                "gate\")");
  }
  if (!document.contains("format")) {
    throw std::invalid_argument("an older report: it has no \"format\" field (format " +
                                std::to_string(gate_json_format) +
                                " added what merge needs); make it again with this s3fault");
  }
  if (const auto format = json_field<int>(document, "", "format"); format != gate_json_format) {
    throw std::invalid_argument("format " + std::to_string(format) + ", this s3fault reads " +
                                std::to_string(gate_json_format));
  }
  gate_report report;
  const auto role = json_field<std::string>(document, "", "role");
  if (role != "reader" && role != "writer") {
    refuse("role", "'" + role + "' is neither reader nor writer");
  }
  report.role = role == "writer" ? run_role::writer : run_role::reader;
  report.client = json_field<std::string>(document, "", role.c_str());
  report.upstream = json_field<std::string>(document, "", "upstream");
  // Added within format 2: absent from the reports of older builds.
  for (const auto& [name, field] :
       {std::pair{"store", &report.store}, std::pair{"region", &report.region},
        std::pair{"working_dir", &report.working_dir}}) {
    *field = document.contains(name) ? text_or_empty(document, "", name) : "";
  }
  if (document.contains("max_not_exercised") && !document["max_not_exercised"].is_null()) {
    std::string error;
    report.max_not_exercised = parse_not_exercised_limit(
        json_field<std::string>(document, "", "max_not_exercised"), error);
    if (!report.max_not_exercised) {
      refuse("max_not_exercised", error);
    }
  }
  report.started_at = json_field<std::string>(document, "", "started_at");
  report.seconds = json_field<double>(document, "", "seconds");
  report.timeout_seconds = json_field<double>(document, "", "timeout_seconds");
  report.jobs = json_field<unsigned>(document, "", "jobs");
  report.seed = json_field<std::uint64_t>(document, "", "seed");
  const auto& selection = json_field<json>(document, "", "selection");
  report.scenario_globs = json_field<std::vector<std::string>>(selection, "selection", "scenarios");
  report.shape_globs = json_field<std::vector<std::string>>(selection, "selection", "shapes");
  report.exclude_globs = json_field<std::vector<std::string>>(selection, "selection", "exclude");
  report.interrupted = json_field<bool>(document, "", "interrupted");
  report.error = text_or_empty(document, "", "error");
  report.runs_planned =
      json_field<std::size_t>(json_field<json>(document, "", "summary"), "summary", "runs_planned");
  read_matrix(document, report);
  const auto& runs = json_field<json>(document, "", "runs");
  for (std::size_t i = 0; i < runs.size(); ++i) {
    report.runs.push_back(run_from_json(runs[i], indexed("runs", i), report.role));
  }
  const auto& cut_off = json_field<json>(document, "", "cut_off_runs");
  for (std::size_t i = 0; i < cut_off.size(); ++i) {
    run_result run;
    run.scenario = json_field<std::string>(cut_off[i], indexed("cut_off_runs", i), "scenario");
    run.shape = json_field<std::string>(cut_off[i], indexed("cut_off_runs", i), "shape");
    run.key = json_field<std::string>(cut_off[i], indexed("cut_off_runs", i), "key");
    report.cut_off.push_back(std::move(run));
  }
  read_shard_fields(document, report);
  return report;
}

} // namespace s3fault::gate
