#include "conformance/gate/gate_merge.hpp"

#include "conformance/gate/gate_report_read.hpp"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>

namespace s3fault::gate {
namespace {

using nlohmann::json;

/// "shard 2/3 (s2.json)"
std::string part_name(const gate_part& part) {
  return "shard " + part.report.shard.text() + " (" + part.file + ")";
}

/// A setting the shards must agree on: its name in messages and where the JSON holds it.
struct compared_setting {
  std::string name;
  std::function<json(const json&)> value;
};

std::vector<compared_setting> compared_settings() {
  const auto at = [](std::string name) {
    return [name](const json& document) { return document.value(name, json()); };
  };
  const auto selection = [](std::string name) {
    return [name](const json& document) {
      return document.value("selection", json::object()).value(name, json());
    };
  };
  return {
      {"role", at("role")},
      {"reader", at("reader")},
      {"writer", at("writer")},
      {"seed", at("seed")},
      {"timeout", at("timeout_seconds")},
      {"selection --scenarios", selection("scenarios")},
      {"selection --shapes", selection("shapes")},
      {"selection --exclude", selection("exclude")},
      {"version", at("version")},
      {"--max-not-exercised", at("max_not_exercised")},
  };
}

/// The store a part's runs were judged against (reports of older builds name only the upstream).
std::string store_of(const gate_part& part) {
  return part.report.store.empty() ? store_name(part.report.upstream) : part.report.store;
}

/// The value as a message shows it: short JSON, or its size when long.
std::string shown(const json& value) {
  const auto text = value.dump();
  return text.size() <= 80 ? text : text.substr(0, 77) + "...";
}

/// Where two matrices differ, in words: the first scenario or shape defined differently.
std::string matrix_difference(const json& one, const json& other) {
  for (const char* list : {"scenarios", "shapes"}) {
    const auto& a = one.value(list, json::array());
    const auto& b = other.value(list, json::array());
    for (std::size_t i = 0; i < std::max(a.size(), b.size()); ++i) {
      if (i >= a.size() || i >= b.size() || a[i] != b[i]) {
        const auto name = [&](const json& items) {
          return i < items.size() ? items[i].value("name", std::string("?")) : std::string("none");
        };
        return std::string(list) + "[" + std::to_string(i) + "] is " + name(a) + " vs " + name(b) +
               (name(a) == name(b) ? " defined differently" : "");
      }
    }
  }
  return "";
}

void compare_settings(const gate_part& first, const gate_part& part,
                      std::vector<std::string>& problems) {
  const auto against = " (" + first.file + " vs " + part.file + ")";
  // Verdicts against two stores are two gates: one store may serve what the other cannot.
  if (store_of(first) != store_of(part)) {
    problems.push_back("the parts were judged against different stores: " + store_of(first) +
                       " vs " + store_of(part) + against);
  }
  for (const auto& setting : compared_settings()) {
    const auto a = setting.value(first.document), b = setting.value(part.document);
    if (a != b) {
      problems.push_back("the parts differ in " + setting.name + ": " + shown(a) + " vs " +
                         shown(b) + against);
    }
  }
  if (const auto where = matrix_difference(first.document, part.document); !where.empty()) {
    problems.push_back("the parts differ in the matrix: " + where + against);
  }
}

/// The plan the parts agree on, and each part's runs against it.
void compare_plans(const gate_part& first, const gate_part& part,
                   std::vector<std::string>& problems) {
  const auto& plan = part.report.owners;
  if (plan.size() != first.report.owners.size() ||
      !std::equal(plan.begin(), plan.end(), first.report.owners.begin(),
                  [](const run_owner& a, const run_owner& b) {
                    return a.key == b.key && a.shard == b.shard;
                  })) {
    problems.push_back("the parts plan different runs (" + first.file + " vs " + part.file + ")");
  }
}

/// Every run `part` owns must be in its runs or cut off, and it owns no run the plan does not
/// give it.
void check_owned_runs(const gate_part& part, std::vector<std::string>& problems) {
  std::set<std::string> made;
  for (const auto& run : part.report.runs) {
    if (run.owned) {
      made.insert(run.key);
    }
  }
  for (const auto& run : part.report.cut_off) {
    made.insert(run.key);
  }
  std::set<std::string> owned;
  for (const auto& owner : part.report.owners) {
    if (owner.shard == part.report.shard.index) {
      owned.insert(owner.key);
      if (made.count(owner.key) == 0) {
        problems.push_back(part_name(part) + " owns " + owner.key +
                           " but neither made it nor lists it as cut off");
      }
    }
  }
  for (const auto& key : made) {
    if (owned.count(key) == 0) {
      problems.push_back(part_name(part) + " reports " + key +
                         " as its own, but the plan gives it to another shard");
    }
  }
}

/// Shards 1..N, each once, all counting N.
void check_shards(const std::vector<gate_part>& parts, std::vector<std::string>& problems) {
  const unsigned count = parts.front().report.shard.count;
  std::map<unsigned, const gate_part*> by_index;
  bool same_count = true;
  for (const auto& part : parts) {
    if (part.report.shard.count != count) {
      problems.push_back("the parts count shards differently: " + parts.front().file +
                         " is shard " + parts.front().report.shard.text() + ", " + part.file +
                         " is shard " + part.report.shard.text());
      same_count = false;
    }
    const auto [at, fresh] = by_index.emplace(part.report.shard.index, &part);
    if (!fresh) {
      problems.push_back("shard " + part.report.shard.text() +
                         " is given twice: " + at->second->file + " and " + part.file);
    }
  }
  if (!same_count) {
    return; // which ones are missing depends on which count is meant
  }
  for (unsigned k = 1; k <= count; ++k) {
    if (by_index.count(k) == 0) {
      problems.push_back("shard " + std::to_string(k) + "/" + std::to_string(count) +
                         " is missing");
    }
  }
}

bool could_judge(const gate_part& part) {
  return part.report.error.empty();
}

/// The distinct texts of `parts`, joined.
std::string distinct(const std::vector<gate_part>& parts,
                     const std::function<std::string(const gate_part&)>& text) {
  std::vector<std::string> seen;
  for (const auto& part : parts) {
    if (const auto each = text(part);
        !each.empty() && std::find(seen.begin(), seen.end(), each) == seen.end()) {
      seen.push_back(each);
    }
  }
  std::string joined;
  for (const auto& each : seen) {
    joined += (joined.empty() ? "" : ", ") + each;
  }
  return joined;
}

/// The merged report's settings and matrix, from the first part that could judge.
gate_report merged_settings(const std::vector<gate_part>& parts) {
  const auto base_part = std::find_if(parts.begin(), parts.end(), could_judge);
  const gate_report& base = (base_part != parts.end() ? *base_part : parts.front()).report;
  gate_report merged;
  merged.role = base.role;
  merged.client = base.client;
  merged.timeout_seconds = base.timeout_seconds;
  merged.seed = base.seed;
  merged.scenario_globs = base.scenario_globs;
  merged.shape_globs = base.shape_globs;
  merged.exclude_globs = base.exclude_globs;
  merged.scenarios = base.scenarios;
  merged.shapes = base.shapes;
  merged.unplanned = base.unplanned;
  merged.matrix_read = base.matrix_read;
  merged.runs_planned = base.owners.size();
  merged.upstream = distinct(parts, [](const gate_part& p) { return p.report.upstream; });
  merged.store = store_of(base_part != parts.end() ? *base_part : parts.front());
  merged.region = base.region;
  merged.working_dir = base.working_dir;
  merged.max_not_exercised = base.max_not_exercised;
  merged.jobs = 0;
  for (const auto& part : parts) {
    merged.jobs += part.report.jobs; // runs at a time, all shards together
    merged.seconds = std::max(merged.seconds, part.report.seconds); // they ran side by side
    if (merged.started_at.empty() || part.report.started_at < merged.started_at) {
      merged.started_at = part.report.started_at;
    }
    merged.parts.push_back(
        {part.file, part.report.shard, part.report.started_at, part.report.seconds});
  }
  return merged;
}

/// A run whose shape's owned baseline did not succeed is NOT_JUDGED, as the unsharded gate
/// would have left it (its shard may have run it on a dependency baseline that succeeded).
void judge_against_owned_baselines(gate_report& merged) {
  std::map<std::string, verdict> baseline_of;
  for (const auto& run : merged.runs) {
    if (run.scenario == "baseline") {
      baseline_of[run.shape] = run.judged.result;
    }
  }
  for (auto& run : merged.runs) {
    const auto baseline = baseline_of.find(run.shape);
    if (run.scenario == "baseline" || baseline == baseline_of.end() ||
        verdict_succeeded(baseline->second) || run.judged.result == verdict::not_judged) {
      continue;
    }
    run_result named;
    named.scenario = run.scenario;
    named.shape = run.shape;
    named.expect = run.expect;
    named.key = run.key;
    named.seed = run.seed;
    named.judged = not_judged(baseline->second, run.shape, merged.role);
    run = std::move(named);
  }
}

/// The parent directories of the failing runs' repro.sh files, joined.
std::string repro_dirs(const gate_report& merged) {
  std::vector<std::string> dirs;
  for (const auto& run : merged.runs) {
    if (!run.repro_file.empty()) {
      const auto dir = std::filesystem::path(run.repro_file).parent_path().string();
      if (std::find(dirs.begin(), dirs.end(), dir) == dirs.end()) {
        dirs.push_back(dir);
      }
    }
  }
  std::string joined;
  for (const auto& dir : dirs) {
    joined += (joined.empty() ? "" : ", ") + dir;
  }
  return joined;
}

} // namespace

std::optional<gate_part> read_gate_part(const std::string& file, std::string_view text,
                                        std::vector<std::string>& problems) {
  gate_part part;
  part.file = file;
  try {
    part.document = json::parse(text);
  } catch (const json::parse_error& bad) {
    problems.push_back(file + ": not JSON: " + bad.what());
    return std::nullopt;
  }
  try {
    part.report = read_gate_report(part.document);
  } catch (const std::invalid_argument& bad) {
    problems.push_back(file + ": " + bad.what());
    return std::nullopt;
  }
  if (!part.document.contains("shard")) {
    problems.push_back(file + ": has no \"shard\" field: " +
                       (part.document.contains("parts")
                            ? std::string("a merged report, not a shard's")
                            : std::string("made without --shard")));
    return std::nullopt;
  }
  return part;
}

std::vector<std::string> merge_problems(const std::vector<gate_part>& parts) {
  std::vector<std::string> problems;
  if (parts.empty()) {
    return {"no shard's report given"};
  }
  check_shards(parts, problems);
  const gate_part* first = nullptr;
  for (const auto& part : parts) {
    if (!could_judge(part)) {
      continue; // its settings were never filled in; its error is the merged report's
    }
    if (first == nullptr) {
      first = &part;
    } else {
      const auto before = problems.size();
      compare_settings(*first, part, problems);
      if (problems.size() == before) {
        compare_plans(*first, part, problems); // else every difference would be said twice
      }
    }
    check_owned_runs(part, problems);
  }
  return problems;
}

gate_report merge_gate_parts(const std::vector<gate_part>& parts) {
  std::vector<gate_part> by_shard = parts;
  std::sort(by_shard.begin(), by_shard.end(), [](const gate_part& a, const gate_part& b) {
    return a.report.shard.index < b.report.shard.index;
  });
  gate_report merged = merged_settings(by_shard);
  std::map<std::string, const run_result*> made, cut_off;
  for (const auto& part : by_shard) {
    if (!could_judge(part)) {
      merged.error += (merged.error.empty() ? "" : "; ") + part_name(part) +
                      " could not judge: " + part.report.error;
    }
    for (const auto& run : part.report.runs) {
      if (run.owned) {
        made[run.key] = &run;
      }
    }
    for (const auto& run : part.report.cut_off) {
      cut_off[run.key] = &run;
    }
  }
  const auto base = std::find_if(by_shard.begin(), by_shard.end(), could_judge);
  const auto plan = base != by_shard.end() ? base->report.owners : std::vector<run_owner>{};
  for (const auto& owner : plan) {
    if (const auto run = made.find(owner.key); run != made.end()) {
      merged.runs.push_back(*run->second);
    } else if (const auto stopped = cut_off.find(owner.key); stopped != cut_off.end()) {
      merged.cut_off.push_back(*stopped->second);
    }
  }
  judge_against_owned_baselines(merged);
  merged.interrupted = merged.error.empty() && !merged.cut_off.empty();
  merged.repro_dir = repro_dirs(merged);
  return merged;
}

} // namespace s3fault::gate
