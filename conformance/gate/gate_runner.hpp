#pragma once
// The gate: every (scenario, shape) pair as one run of the reader, through an in-process proxy
// whose rules are the scenario's, against a fixture uploaded straight to the store.
//
//   for each shape: bytes (seeded) ─┐
//   for each scenario: PUT gate/<scenario>/<shape> to the store (direct)
//                      rules ──> embedded proxy ──> store
//                      reader ──(endpoint = proxy)──> output file ──judge──> verdict + traffic
#include "conformance/client/s3_client.hpp"
#include "conformance/gate/run_verdict.hpp"
#include "conformance/gate/traffic_counter.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace s3fault::gate {

struct gate_settings {
  std::string reader;         // as the user gave it: a command or builtin:NAME
  std::string reader_command; // the command actually run (builtin:NAME expanded)
  std::string upstream;       // store URL; empty: an embedded origin started for the gate
  s3::credentials credentials{"s3fault", "s3fault-secret", ""};
  std::string region = "us-east-1";
  std::vector<std::string> scenario_globs{"*"};
  std::vector<std::string> shape_globs{"*"};
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
  std::string work_dir; // scratch space for outputs and the reader's HOME
  std::uint64_t seed = 1;
  const std::atomic<bool>* stop_requested = nullptr;
};

struct run_result {
  std::string scenario;
  std::string shape;
  expectation expect = expectation::must_recover;
  judged_run judged;
  int exit_code = -1;
  double seconds = 0;
  std::string stderr_tail; // the reader's last lines on stderr
  traffic seen;
};

struct gate_report {
  std::string reader;
  std::string upstream; // the URL, or "embedded origin"
  std::string started_at;
  double seconds = 0;
  double timeout_seconds = 0;
  std::vector<std::string> scenario_names; // selected, in order
  std::vector<std::string> shape_names;
  std::vector<run_result> runs;
  std::size_t runs_planned = 0;
  bool interrupted = false;
};

struct gate_observer {
  std::function<void(const std::string& upstream, const std::string& proxy)> started;
  std::function<void(const run_result&)> run_done;
};

/// Throws std::invalid_argument when the globs select nothing and std::runtime_error when the
/// store cannot be used (fixtures cannot be uploaded), with the reason.
gate_report run_gate(const gate_settings& settings, const gate_observer& observer = {});

/// `passed` and `failed` over the runs; exit status 0 when nothing failed.
struct gate_totals {
  std::size_t passed = 0, failed = 0;
  std::size_t correct = 0, rejected = 0, silent_corruption = 0, hung = 0;
};
gate_totals count_runs(const gate_report& report);
int gate_exit_status(const gate_report& report);

} // namespace s3fault::gate
