// `gate merge` on synthetic shards: the merged verdicts and exit status are those of one
// unsharded gate (NOT_JUDGED from the owners' baselines, "nothing was judged" on the whole), a
// shard that could not judge or was interrupted decides the whole, and every reason to refuse
// is named.
#include "conformance/gate/gate_merge.hpp"
#include "conformance/gate/gate_reports.hpp"
#include "conformance/gate/run_shard.hpp"
#include "runtime/build_info.hpp"

#include <gtest/gtest.h>
#include <pugixml.hpp>

#include <functional>
#include <map>

namespace s3fault::gate {
namespace {

/// What each run comes to, by key; runs not named pass CORRECT.
using verdicts = std::map<std::string, std::pair<verdict, run_outcome>>;

judged_run judged_as(const verdicts& given, const std::string& key) {
  judged_run judged;
  if (const auto found = given.find(key); found != given.end()) {
    judged.result = judged.observed = found->second.first;
    judged.outcome = found->second.second;
  }
  return judged;
}

/// A gate of baseline, strip and trim on the shapes small, big and odd, made unsharded or as
/// shard K of N the way the runner makes it: owned runs plus dependency baselines, a run NOT_JUDGED
/// when the baseline the shard made itself did not succeed.
struct synthetic_gate {
  gate_matrix matrix;
  run_plan plan;

  synthetic_gate() {
    for (const char* name : {"baseline", "strip", "trim"}) {
      scenario s;
      s.name = name;
      s.needs_injection = s.name != "baseline";
      matrix.scenarios.push_back(s);
    }
    for (const char* name : {"small", "big", "odd"}) {
      object_shape shape;
      shape.name = name;
      matrix.shapes.push_back(shape);
    }
    plan = plan_runs(matrix, {"*"}, {"*"}, {}, 1);
  }

  gate_report report_of(const run_plan& runs, const std::vector<bool>& owned,
                        const verdicts& given) const {
    gate_report report = error_report(run_role::reader, "builtin:robust-parts", "");
    report.upstream = "http://127.0.0.1:9000";
    report.timeout_seconds = 60;
    report.scenario_globs = report.shape_globs = {"*"};
    report.scenarios = runs.scenarios;
    report.shapes = runs.shapes;
    report.runs_planned = plan.runs.size();
    std::map<std::string, verdict> baseline_of;
    for (std::size_t i = 0; i < runs.runs.size(); ++i) {
      const auto& planned = runs.runs[i];
      run_result result = named_result(planned);
      const auto baseline = baseline_of.find(planned.shape->name);
      if (!planned.baseline && !verdict_succeeded(baseline->second)) {
        result.judged = not_judged(baseline->second, planned.shape->name);
      } else {
        result.judged = judged_as(given, planned.key);
      }
      if (planned.baseline) {
        baseline_of[planned.shape->name] = result.judged.result;
      }
      result.owned = owned[i];
      report.runs.push_back(result);
    }
    return report;
  }

  gate_report unsharded(const verdicts& given) const {
    return report_of(plan, std::vector<bool>(plan.runs.size(), true), given);
  }

  /// Shard K of N; `dependencies` overrides what its dependency baselines came to (a flaky
  /// shape reads differently on another machine).
  gate_report shard(unsigned k, unsigned n, const verdicts& given,
                    const verdicts& dependencies = {}) const {
    const auto owners = run_owners(plan.runs, n);
    const auto share = share_of_plan(plan, owners, k);
    verdicts seen = given;
    for (std::size_t i = 0; i < share.plan.runs.size(); ++i) {
      if (!share.owned[i] && dependencies.count(share.plan.runs[i].key) > 0) {
        seen[share.plan.runs[i].key] = dependencies.at(share.plan.runs[i].key);
      }
    }
    auto report = report_of(share.plan, share.owned, seen);
    report.shard = {k, n, "--shard " + std::to_string(k) + "/" + std::to_string(n)};
    for (std::size_t i = 0; i < plan.runs.size(); ++i) {
      report.owners.push_back({plan.runs[i].key, owners[i]});
    }
    return report;
  }

  /// Which shard owns `key` among N.
  unsigned owner_of(const std::string& key, unsigned n) const {
    const auto owners = run_owners(plan.runs, n);
    for (std::size_t i = 0; i < plan.runs.size(); ++i) {
      if (plan.runs[i].key == key) {
        return owners[i];
      }
    }
    return 0;
  }
};

/// The report as `gate merge` reads it from the file `file`.
gate_part part_of(const gate_report& report, const std::string& file) {
  std::vector<std::string> problems;
  auto part = read_gate_part(file, gate_json_report(report), problems);
  EXPECT_TRUE(problems.empty()) << problems.front();
  return part.value_or(gate_part{});
}

std::vector<gate_part> parts_of(const synthetic_gate& gate, unsigned n, const verdicts& given,
                                const verdicts& dependencies = {}) {
  std::vector<gate_part> parts;
  for (unsigned k = n; k >= 1; --k) { // any order
    parts.push_back(
        part_of(gate.shard(k, n, given, dependencies), "s" + std::to_string(k) + ".json"));
  }
  return parts;
}

std::vector<std::string> keys_and_verdicts(const gate_report& report) {
  std::vector<std::string> out;
  for (const auto& run : report.runs) {
    out.push_back(run.key + " " + std::string(to_string(run.judged.result)));
  }
  return out;
}

std::string joined(const std::vector<std::string>& problems) {
  std::string text;
  for (const auto& each : problems) {
    text += each + "\n";
  }
  return text;
}

void expect_same_as_unsharded(const synthetic_gate& gate, const verdicts& given, unsigned n) {
  const auto parts = parts_of(gate, n, given);
  ASSERT_TRUE(merge_problems(parts).empty()) << joined(merge_problems(parts));
  const auto merged = merge_gate_parts(parts);
  const auto whole = gate.unsharded(given);
  EXPECT_EQ(keys_and_verdicts(merged), keys_and_verdicts(whole)) << n << " shards";
  EXPECT_EQ(gate_exit_status(merged), gate_exit_status(whole)) << exit_status_reason(merged);
  EXPECT_EQ(exit_status_reason(merged), exit_status_reason(whole));
  EXPECT_EQ(merged.runs_planned, whole.runs.size());
}

const verdicts strip_exercised = {
    {"gate/strip/big", {verdict::correct, run_outcome::passed}},
    {"gate/strip/small", {verdict::not_exercised, run_outcome::not_exercised}}};

TEST(GateMerge, TheMergedShardsGiveTheVerdictsOfOneGateInPlanOrder) {
  const synthetic_gate gate;
  for (unsigned n = 1; n <= 5; ++n) {
    expect_same_as_unsharded(gate, strip_exercised, n);
  }
  const auto merged = merge_gate_parts(parts_of(gate, 3, strip_exercised));
  EXPECT_EQ(gate_exit_status(merged), 0) << exit_status_reason(merged);
  EXPECT_EQ(merged.runs.front().key, "gate/baseline/small");
  const auto json = nlohmann::json::parse(gate_json_report(merged));
  EXPECT_EQ(json["shards"], 3);
  EXPECT_EQ(json["parts"][0]["file"], "s1.json") << "in shard order";
  EXPECT_EQ(json["parts"][2]["shard"], "3/3");
  EXPECT_FALSE(json.contains("shard")) << "the merged report is the whole, not a shard";
}

TEST(GateMerge, AFailedRunFailsTheWhole) {
  const synthetic_gate gate;
  auto given = strip_exercised;
  given["gate/trim/odd"] = {verdict::silent_corruption, run_outcome::failed};
  expect_same_as_unsharded(gate, given, 3);
  EXPECT_EQ(gate_exit_status(merge_gate_parts(parts_of(gate, 3, given))), 1);
}

TEST(GateMerge, ARunIsNotJudgedWhenItsShapesOwnedBaselineFailedWhateverItsShardSaw) {
  const synthetic_gate gate;
  auto given = strip_exercised;
  given["gate/baseline/big"] = {verdict::rejected, run_outcome::failed};
  // Every shard but the baseline's owner ran the big runs on a dependency baseline that read
  // CORRECT there; the unsharded gate would not have judged them.
  const verdicts flaky = {{"gate/baseline/big", {verdict::correct, run_outcome::passed}}};
  const auto merged = merge_gate_parts(parts_of(gate, 3, given, flaky));
  EXPECT_EQ(keys_and_verdicts(merged), keys_and_verdicts(gate.unsharded(given)));
  for (const auto& run : merged.runs) {
    if (run.shape == "big" && run.scenario != "baseline") {
      EXPECT_EQ(run.judged.outcome, run_outcome::not_judged) << run.key;
      EXPECT_NE(run.judged.why.find("REJECTED"), std::string::npos) << run.judged.why;
    }
  }
  EXPECT_EQ(gate_exit_status(merged), 1);
}

TEST(GateMerge, ARunItsShardLeftNotJudgedStaysNotJudged) {
  const synthetic_gate gate;
  // The owner read baseline/odd CORRECT, another shard's dependency run did not: that shard's
  // odd runs stay NOT_JUDGED (they were never made), and the whole fails.
  const verdicts flaky = {{"gate/baseline/odd", {verdict::hung, run_outcome::failed}}};
  const auto parts = parts_of(gate, 3, strip_exercised, flaky);
  const auto merged = merge_gate_parts(parts);
  const unsigned baseline_owner = gate.owner_of("gate/baseline/odd", 3);
  std::size_t not_judged_runs = 0;
  for (const auto& run : merged.runs) {
    if (run.shape == "odd" && run.scenario != "baseline") {
      const bool made_by_owner = gate.owner_of(run.key, 3) == baseline_owner;
      EXPECT_EQ(run.judged.outcome == run_outcome::not_judged, !made_by_owner) << run.key;
      not_judged_runs += run.judged.outcome == run_outcome::not_judged;
    }
  }
  ASSERT_GT(not_judged_runs, 0u)
      << "every odd run is owned by the baseline's owner: pick another split";
  EXPECT_EQ(gate_exit_status(merged), 1);
}

TEST(GateMerge, NothingJudgedIsDecidedOnTheWholeNotInAShard) {
  const synthetic_gate gate;
  verdicts nothing;
  for (const auto& run : gate.plan.runs) {
    if (!run.baseline) {
      nothing[run.key] = {verdict::not_exercised, run_outcome::not_exercised};
    }
  }
  for (unsigned k = 1; k <= 3; ++k) {
    const auto shard = gate.shard(k, 3, nothing);
    EXPECT_EQ(gate_exit_status(shard), 0) << "a shard cannot know";
    EXPECT_EQ(exit_status_reason(shard),
              "shard " + std::to_string(k) +
                  "/3: every run this shard owns passed or was not exercised; the whole verdict "
                  "comes from `s3fault gate merge`");
  }
  const auto merged = merge_gate_parts(parts_of(gate, 3, nothing));
  EXPECT_EQ(gate_exit_status(merged), 1);
  EXPECT_EQ(exit_status_reason(merged).rfind("nothing was judged: ", 0), 0u)
      << exit_status_reason(merged);
}

TEST(GateMerge, AShardsReportsCountOnlyTheRunsItOwns) {
  const synthetic_gate gate;
  std::size_t dependencies = 0;
  for (unsigned k = 1; k <= 3; ++k) {
    auto shard = gate.shard(k, 3, strip_exercised);
    std::size_t owned = 0;
    for (auto& run : shard.runs) {
      owned += run.owned;
      if (!run.owned) {
        ++dependencies;
        run.judged.outcome = run_outcome::failed; // counts nowhere: its owner judges it
      }
    }
    EXPECT_EQ(gate_exit_status(shard), 0) << exit_status_reason(shard);
    const auto json = nlohmann::json::parse(gate_json_report(shard));
    EXPECT_EQ(json["summary"]["runs"], owned);
    EXPECT_EQ(json["summary"]["failed"], 0);
    pugi::xml_document junit;
    ASSERT_TRUE(junit.load_string(gate_junit_report(shard).c_str()));
    const auto suites = junit.child("testsuites");
    EXPECT_EQ(suites.attribute("failures").as_uint(), 0u);
    std::size_t testcases = 0, coverage = 0;
    for (const auto suite : suites.children("testsuite")) {
      const std::string name = suite.attribute("name").value();
      const auto count = static_cast<std::size_t>(
          std::distance(suite.children("testcase").begin(), suite.children("testcase").end()));
      if (name == "gate.coverage") {
        coverage = count;
        EXPECT_EQ(suite.find_child_by_attribute("testcase", "name", "all runs")
                      .find_child_by_attribute("property", "name", "runs")
                      .attribute("value")
                      .as_uint(),
                  0u)
            << "properties in <properties>";
      } else if (name != "gate.exit-status") {
        testcases += count;
      }
    }
    EXPECT_EQ(testcases, owned);
    EXPECT_EQ(suites.attribute("tests").as_uint(), owned + coverage + 1)
        << "and the coverage and the exit status";
  }
  EXPECT_GT(dependencies, 0u) << "some shard makes a baseline it does not own";
}

TEST(GateMerge, AShardThatCouldNotJudgeMakesTheWholeExit2NamingIt) {
  const synthetic_gate gate;
  auto parts = parts_of(gate, 3, strip_exercised);
  auto broken = error_report(run_role::reader, "builtin:robust-parts", "the store refused");
  broken.shard = {2, 3, "--shard 2/3"};
  parts[1] = part_of(broken, "s2.json"); // parts are 3, 2, 1
  EXPECT_TRUE(merge_problems(parts).empty()) << joined(merge_problems(parts));
  const auto merged = merge_gate_parts(parts);
  EXPECT_EQ(gate_exit_status(merged), 2);
  EXPECT_EQ(merged.error, "shard 2/3 (s2.json) could not judge: the store refused");
}

TEST(GateMerge, AnInterruptedShardMakesTheWhole130WithItsCutOffRuns) {
  const synthetic_gate gate;
  auto shard = gate.shard(1, 3, strip_exercised);
  std::vector<run_result> kept;
  for (auto& run : shard.runs) {
    if (run.owned && run.scenario != "baseline") {
      shard.cut_off.push_back(run); // stopped before its verdict
    } else {
      kept.push_back(run);
    }
  }
  ASSERT_FALSE(shard.cut_off.empty());
  shard.runs = kept;
  shard.interrupted = true;
  auto parts = parts_of(gate, 3, strip_exercised);
  parts[2] = part_of(shard, "s1.json");
  ASSERT_TRUE(merge_problems(parts).empty()) << joined(merge_problems(parts));
  const auto merged = merge_gate_parts(parts);
  EXPECT_EQ(gate_exit_status(merged), 130);
  EXPECT_EQ(merged.cut_off.size(), shard.cut_off.size());
  EXPECT_EQ(merged.cut_off.front().key, shard.cut_off.front().key);
  EXPECT_EQ(merged.runs.size() + merged.cut_off.size(), gate.plan.runs.size());
}

TEST(GateMerge, MissingShardsAreNamed) {
  const synthetic_gate gate;
  auto parts = parts_of(gate, 4, strip_exercised);
  parts.erase(parts.begin() + 1); // 3/4
  parts.erase(parts.begin() + 1); // 2/4
  EXPECT_EQ(merge_problems(parts),
            (std::vector<std::string>{"shard 2/4 is missing", "shard 3/4 is missing"}));
}

TEST(GateMerge, AShardGivenTwiceOrCountedDifferentlyIsRefused) {
  const synthetic_gate gate;
  auto parts = parts_of(gate, 2, strip_exercised);
  parts.push_back(part_of(gate.shard(2, 2, strip_exercised), "again.json"));
  EXPECT_EQ(merge_problems(parts),
            (std::vector<std::string>{"shard 2/2 is given twice: s2.json and again.json"}));
  parts.pop_back();
  parts.push_back(part_of(gate.shard(3, 3, strip_exercised), "s3.json"));
  const auto problems = joined(merge_problems(parts));
  EXPECT_NE(problems.find("the parts count shards differently: s2.json is shard 2/2, s3.json is "
                          "shard 3/3"),
            std::string::npos)
      << problems;
}

TEST(GateMerge, PartsWithDifferentSettingsAreRefusedNamingTheSettingAndBothValues) {
  const synthetic_gate gate;
  auto parts = parts_of(gate, 2, strip_exercised); // s2, s1
  auto other = gate.shard(1, 2, strip_exercised);
  other.seed = 7;
  other.client = "builtin:naive-parts";
  other.timeout_seconds = 30;
  other.shape_globs = {"s*"};
  parts[1] = part_of(other, "s1.json");
  const auto problems = merge_problems(parts);
  EXPECT_EQ(problems, (std::vector<std::string>{
                          "the parts differ in reader: \"builtin:robust-parts\" vs "
                          "\"builtin:naive-parts\" (s2.json vs s1.json)",
                          "the parts differ in seed: 1 vs 7 (s2.json vs s1.json)",
                          "the parts differ in timeout: 60.0 vs 30.0 (s2.json vs s1.json)",
                          "the parts differ in selection --shapes: [\"*\"] vs [\"s*\"] (s2.json "
                          "vs s1.json)"}))
      << joined(problems);
}

TEST(GateMerge, PartsJudgedAgainstDifferentStoresAreRefusedNamingBoth) {
  const synthetic_gate gate;
  auto parts = parts_of(gate, 2, strip_exercised); // s2, s1: against http://127.0.0.1:9000
  auto embedded = gate.shard(1, 2, strip_exercised);
  embedded.upstream = "embedded origin";
  embedded.store = store_name("");
  parts[1] = part_of(embedded, "s1.json");
  EXPECT_EQ(merge_problems(parts),
            (std::vector<std::string>{"the parts were judged against different stores: "
                                      "http://127.0.0.1:9000 vs " +
                                      store_name("") + " (s2.json vs s1.json)"}));
}

TEST(GateMerge, ShardsEachOnAnEmbeddedOriginOfTheSameVersionMerge) {
  // A CI matrix job has no store of its own: each shard starts the embedded origin, and every
  // part names it with its version.
  const synthetic_gate gate;
  std::vector<gate_part> parts;
  for (unsigned k = 1; k <= 2; ++k) {
    auto shard = gate.shard(k, 2, strip_exercised);
    shard.upstream = "embedded origin";
    shard.store = store_name("");
    parts.push_back(part_of(shard, "s" + std::to_string(k) + ".json"));
    EXPECT_EQ(parts.back().document["store"],
              "embedded origin (s3fault " + std::string(runtime::build_version()) + ")");
  }
  ASSERT_TRUE(merge_problems(parts).empty()) << joined(merge_problems(parts));
  const auto merged = merge_gate_parts(parts);
  EXPECT_EQ(merged.store, store_name(""));
  EXPECT_EQ(nlohmann::json::parse(gate_json_report(merged))["store"], store_name(""));
  EXPECT_EQ(gate_exit_status(merged), 0) << exit_status_reason(merged);
}

TEST(GateMerge, TheNotExercisedLimitIsAppliedToTheWholeAndMustAgree) {
  const synthetic_gate gate;
  std::string error;
  std::vector<gate_part> parts;
  for (unsigned k = 1; k <= 3; ++k) {
    auto shard = gate.shard(k, 3, strip_exercised);
    shard.max_not_exercised = parse_not_exercised_limit("0", error);
    EXPECT_EQ(gate_exit_status(shard), 0) << "a shard leaves it to merge";
    parts.push_back(part_of(shard, "s" + std::to_string(k) + ".json"));
  }
  ASSERT_TRUE(merge_problems(parts).empty()) << joined(merge_problems(parts));
  const auto merged = merge_gate_parts(parts);
  EXPECT_EQ(gate_exit_status(merged), 1);
  EXPECT_EQ(exit_status_reason(merged),
            "1 of 9 runs not exercised (11 %), more than --max-not-exercised 0 allows");
  auto other = gate.shard(1, 3, strip_exercised);
  other.max_not_exercised = parse_not_exercised_limit("5%", error);
  parts[0] = part_of(other, "s1.json");
  EXPECT_EQ(merge_problems(parts),
            (std::vector<std::string>{
                "the parts differ in --max-not-exercised: \"5%\" vs \"0\" (s1.json vs s2.json)",
                "the parts differ in --max-not-exercised: \"5%\" vs \"0\" (s1.json vs s3.json)"}));
}

TEST(GateMerge, PartsOfDifferentMatricesAreRefusedNamingWhere) {
  synthetic_gate gate, other_gate;
  other_gate.matrix.shapes[1].size = 99;
  auto parts = parts_of(gate, 2, strip_exercised);
  parts[1] = part_of(other_gate.shard(1, 2, strip_exercised), "s1.json");
  EXPECT_EQ(merge_problems(parts),
            (std::vector<std::string>{"the parts differ in the matrix: shapes[1] is big vs big "
                                      "defined differently (s2.json vs s1.json)"}));
}

TEST(GateMerge, AFileThatIsNotAShardsReportIsRefusedSayingWhy) {
  const synthetic_gate gate;
  std::vector<std::string> problems;
  EXPECT_FALSE(read_gate_part("a.json", "{not json", problems));
  EXPECT_FALSE(
      read_gate_part("b.json", gate_json_report(gate.unsharded(strip_exercised)), problems));
  auto old = nlohmann::json::parse(gate_json_report(gate.shard(1, 2, strip_exercised)));
  old.erase("format");
  EXPECT_FALSE(read_gate_part("c.json", old.dump(), problems));
  EXPECT_FALSE(read_gate_part("d.json", R"({"tool": "s3fault bench"})", problems));
  ASSERT_EQ(problems.size(), 4u);
  EXPECT_EQ(problems[0].rfind("a.json: not JSON: ", 0), 0u) << problems[0];
  EXPECT_EQ(problems[1], "b.json: has no \"shard\" field: made without --shard");
  EXPECT_EQ(problems[2].rfind("c.json: an older report: it has no \"format\" field", 0), 0u)
      << problems[2];
  EXPECT_EQ(problems[3].rfind("d.json: not the JSON report of s3fault gate", 0), 0u) << problems[3];
}

} // namespace
} // namespace s3fault::gate
