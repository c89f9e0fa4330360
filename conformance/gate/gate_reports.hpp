#pragma once
// The gate's outputs from one gate_report: a table for people (one line per run, printed as
// runs finish, the failures explained), JSON for tools (docs/readers.md is rendered from it),
// JUnit XML for CI (one testcase per scenario and shape).
#include "conformance/gate/gate_runner.hpp"
#include "conformance/report/table_text.hpp"

#include <ostream>
#include <string>

namespace s3fault::gate {

class gate_text_report {
public:
  /// `show_repro`: the end of the report prints each failing run's repro.sh, not only its path.
  gate_text_report(std::ostream& out, bool colour, bool show_repro = false)
      : out_(out), paint_(colour), show_repro_(show_repro) {}
  /// The header: who runs against what (and which shard of the runs, when sharded).
  void begin(run_role role, const std::string& client, const std::string& upstream,
             const std::string& proxy, const runtime::shard& part = {});
  /// The header of a merged report (`gate merge`): who ran, from which shards' reports.
  void begin_merged(const gate_report& merged);
  void run_done(const run_result& run);
  /// The coverage, "N passed, N failed, ... (verdicts of the N judged runs: ...)" and the failed
  /// runs again, each with its repro.sh's path.
  void finish(const gate_report& report);

private:
  std::string verdict_counts(const gate_totals& totals) const;
  /// "coverage: 78 of 130 runs judged; 52 not exercised (40 %)", then per expectation and per
  /// scenario, and the --max-not-exercised line.
  void print_coverage(const gate_report& report);
  void print_failures(const gate_report& report);
  std::ostream& out_;
  run_role role_ = run_role::reader;
  report::painter paint_;
  bool show_repro_;
};

/// "3 GetObject + 1 HeadObject, 2 retries, 3 faults, 20.0 MiB to the reader" (a writer's:
/// "... MiB from the writer").
std::string describe_traffic(const traffic& seen, run_role role = run_role::reader);
/// What a writer's run left open: "no open upload", "2 open uploads (aborted)", or why the store
/// could not tell.
std::string describe_open_uploads(const run_result& run);

/// The JSON's "format": 2 added what `gate merge` reads (selection, shard, plan, owned); a
/// report without it is older and cannot be merged.
inline constexpr int gate_json_format = 2;
std::string gate_json_report(const gate_report& report);
std::string gate_junit_report(const gate_report& report);

} // namespace s3fault::gate
