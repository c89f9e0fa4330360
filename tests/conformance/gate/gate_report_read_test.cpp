// A gate's JSON report read back: writing what was read gives the same JSON (readers and
// writers, shards and merged reports, errors and cut-off runs), and what cannot be read is
// refused naming the field.
#include "conformance/gate/gate_report_read.hpp"
#include "conformance/gate/gate_reports.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace s3fault::gate {
namespace {

/// A report that sets every field the JSON holds, pointing into its own scenarios and shapes.
struct full_report {
  scenario baseline, strip, parts;
  object_shape small, big;
  gate_report report;

  explicit full_report(run_role role) {
    baseline.name = "baseline";
    baseline.needs_injection = false;
    baseline.origin = "builtin-matrix.yaml:3";
    strip.name = "strip";
    strip.description = "x-amz-mp-parts-count removed";
    strip.expect = expectation::must_not_corrupt;
    strip.rules_text = {"strip-header x-amz-mp-parts-count op=GetObject"};
    strip.shape_globs = {"big*"};
    strip.action = role == run_role::writer ? scenario_action::overwrite
                                            : scenario_action::replace_after_first_read;
    strip.timeout = std::chrono::milliseconds(2500);
    strip.why = "a reader that trusts it reads part 1 only";
    parts.name = "parts";
    parts.multipart_only = true;
    small.name = "small";
    small.size = 1024;
    small.checksum = "none";
    big.name = "big-mp";
    big.size = 10 << 20;
    big.part_sizes = {5 << 20, 5 << 20};
    big.content_type = "application/x-parquet";
    report.role = role;
    report.client = role == run_role::writer ? "builtin:careful" : "builtin:robust-parts";
    report.upstream = "http://127.0.0.1:9000";
    report.started_at = "2025-01-02T03:04:05Z";
    report.seconds = 12.345678901;
    report.timeout_seconds = 60;
    report.jobs = 2;
    report.seed = 18446744073709551615ull;
    report.scenario_globs = {"*"};
    report.shape_globs = {"small", "big*"};
    report.exclude_globs = {"parts"};
    report.scenarios = {&baseline, &strip, &parts};
    report.shapes = {&small, &big};
    report.unplanned = {{&parts, "needs a multipart shape; none selected"}};
    report.runs_planned = 4;
    report.runs.push_back(run("baseline", "small", verdict::correct, run_outcome::passed));
    auto corrupt = run("strip", "big-mp", verdict::silent_corruption, run_outcome::failed);
    corrupt.judged.first_difference = 5 << 20;
    corrupt.repro = "#!/bin/bash\necho repro\n";
    corrupt.repro_file = "/tmp/r/strip.big-mp/repro.sh";
    corrupt.kept = "/tmp/r/strip.big-mp";
    corrupt.checksum = "crc32";
    corrupt.open_uploads = 2;
    report.runs.push_back(corrupt);
    auto unknown = run("strip", "small", verdict::not_exercised, run_outcome::not_exercised);
    unknown.open_uploads_problem = "ListMultipartUploads: 501";
    report.runs.push_back(unknown);
    run_result cut;
    cut.scenario = "baseline";
    cut.shape = "big-mp";
    cut.key = "gate/baseline/big-mp";
    report.cut_off = {cut};
  }

  static run_result run(const std::string& scenario, const std::string& shape, verdict result,
                        run_outcome outcome) {
    run_result r;
    r.scenario = scenario;
    r.shape = shape;
    r.key = "gate/" + scenario + "/" + shape;
    r.seed = 4000000000u;
    r.rules = {{"rules", nlohmann::json::array({{{"actions", {"reset"}}}})}, {"seed", 7}};
    r.judged.result = result;
    r.judged.observed = result;
    r.judged.outcome = outcome;
    r.judged.why = "exit 0 with 5 of 10 bytes";
    r.judged.expected_bytes = 10;
    r.judged.actual_bytes = 5;
    r.exit_code = 3;
    r.seconds = 0.25;
    r.stderr_tail = "line 1\nline 2 \xff";
    r.seen.requests = 3;
    r.seen.requests_to_proxy = 4;
    r.seen.by_operation = {{"GetObject", 2}, {"HeadObject", 1}};
    r.seen.retries = 1;
    r.seen.faults_injected = 2;
    r.seen.faults_on_object = 1;
    r.seen.errors = 1;
    r.seen.bytes_to_reader = 5;
    r.seen.bytes_from_reader = 6;
    return r;
  }
};

std::string round_trip(const gate_report& report) {
  return gate_json_report(read_gate_report(nlohmann::json::parse(gate_json_report(report))));
}

TEST(GateReportRead, AReadersReportReadsBackToTheSameJson) {
  const full_report full(run_role::reader);
  EXPECT_EQ(round_trip(full.report), gate_json_report(full.report));
}

TEST(GateReportRead, AWritersReportReadsBackToTheSameJson) {
  const full_report full(run_role::writer);
  EXPECT_EQ(round_trip(full.report), gate_json_report(full.report));
}

TEST(GateReportRead, AShardsReportKeepsItsShardPlanAndDependencyRuns) {
  full_report full(run_role::reader);
  full.report.shard = {2, 3, "--shard 2/3"};
  full.report.owners = {{"gate/baseline/small", 3}, {"gate/strip/big-mp", 2}};
  full.report.runs[0].owned = false;
  const auto json = gate_json_report(full.report);
  EXPECT_EQ(round_trip(full.report), json);
  const auto read = read_gate_report(nlohmann::json::parse(json));
  EXPECT_EQ(read.shard.text(), "2/3");
  EXPECT_EQ(read.shard.source, "--shard 2/3");
  EXPECT_FALSE(read.runs[0].owned);
  EXPECT_TRUE(read.runs[1].owned);
  ASSERT_EQ(read.owners.size(), 2u);
  EXPECT_EQ(read.owners[0].shard, 3u);
  EXPECT_EQ(read.unplanned[0].selected, read.scenarios[2]) << "points into its own matrix";
  EXPECT_EQ(read.scenarios[1]->timeout, std::chrono::milliseconds(2500));
}

TEST(GateReportRead, AMergedReportAndAnErrorReadBack) {
  full_report full(run_role::reader);
  full.report.parts = {{"s1.json", {1, 2, "--shard 1/2"}, "2025-01-02T03:04:05Z", 3.5},
                       {"s2.json", {2, 2, "SLURM_PROCID=1 SLURM_NTASKS=2"}, "x", 4}};
  full.report.error = "shard 2/2 (s2.json) could not judge: the store refused";
  EXPECT_EQ(round_trip(full.report), gate_json_report(full.report));
}

std::string read_error(nlohmann::json document) {
  try {
    read_gate_report(document);
  } catch (const std::invalid_argument& refused) {
    return refused.what();
  }
  return "read";
}

TEST(GateReportRead, WhatCannotBeReadIsRefusedNamingTheField) {
  const full_report full(run_role::reader);
  const auto good = nlohmann::json::parse(gate_json_report(full.report));
  auto old = good;
  old.erase("format");
  EXPECT_NE(read_error(old).find("no \"format\" field"), std::string::npos) << read_error(old);
  auto wrong = good;
  wrong["runs"][1]["verdict"] = "MAYBE";
  EXPECT_EQ(read_error(wrong), "runs[1].verdict: 'MAYBE' is not a verdict");
  auto missing = good;
  missing["runs"][0]["traffic"].erase("retries");
  EXPECT_EQ(read_error(missing), "runs[0].traffic.retries: missing");
  auto typed = good;
  typed["seed"] = "one";
  EXPECT_EQ(read_error(typed), "seed: has the wrong type (string)");
  EXPECT_NE(read_error({{"tool", "s3fault audit"}}).find("not the JSON report of s3fault gate"),
            std::string::npos);
}

} // namespace
} // namespace s3fault::gate
