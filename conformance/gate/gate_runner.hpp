#pragma once
// The gate: every (scenario, shape) pair as one run of the reader, through an in-process proxy
// whose rules are the scenario's, against an object uploaded straight to the store.
//
//   baseline on every shape first ──> shapes the reader cannot read: their runs NOT_JUDGED
//   then each (scenario, shape), on --jobs workers (each its own proxy and key):
//     PUT gate/<scenario>/<shape> to the store (seeded bytes)
//     rules (limited to that key, seeded) ──> proxy ──> store
//     reader ──(endpoint = proxy)──> output ──judge──> verdict, counted only if a rule fired
#include "conformance/client/s3_client.hpp"
#include "conformance/gate/gate_matrix.hpp"
#include "conformance/gate/run_plan.hpp"
#include "conformance/gate/run_verdict.hpp"
#include "conformance/gate/traffic_counter.hpp"
#include "runtime/shard.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace s3fault::gate {

/// --max-not-exercised: how many runs may be NOT_EXERCISED before the gate fails, as a count
/// ("10") or as a share of the runs counted ("25%"). A reader that meets most faults in no run
/// says little, however many of its runs passed.
struct not_exercised_limit {
  std::string text; // as given: for messages and the JSON
  double value = 0;
  bool percent = false;
  /// Whether `not_exercised` runs of `runs` are more than the limit allows.
  bool exceeded(std::size_t not_exercised, std::size_t runs) const;
};
/// The limit `text` names ("10", "25%"), or nullopt with what is wrong in `error`.
std::optional<not_exercised_limit> parse_not_exercised_limit(const std::string& text,
                                                             std::string& error);

struct gate_settings {
  run_role role = run_role::reader; // --reader or --writer
  std::string client;               // as the user gave it: a command or builtin:NAME
  std::string client_command;       // the command actually run (builtin:NAME expanded)
  std::string upstream;             // store URL; empty: an embedded origin started for the gate
  s3::credentials credentials{"s3fault", "s3fault-secret", ""};
  std::string region = "us-east-1";
  gate_matrix matrix; // the role's built-in matrix plus the scenario files'
  std::vector<std::string> scenario_globs{"*"};
  std::vector<std::string> shape_globs{"*"};
  std::vector<std::string> exclude_globs; // scenario or shape names left out
  std::chrono::milliseconds timeout{std::chrono::seconds(60)};
  unsigned jobs = 1;
  std::string work_dir;    // scratch space for the runs and the readers' HOME
  std::string keep_failed; // where failing runs' files are kept; empty: nowhere
  std::string repro_dir;   // where failing runs' repro.sh go without keep_failed; empty: nowhere
  std::string s3fault;     // this binary's path, for the repro commands
  std::uint64_t seed = 1;
  /// The part of the runs this process makes (run_shard.hpp); unsharded: all of them. A shard
  /// needs --upstream: the shards share the store, each makes its own bucket.
  runtime::shard shard;
  /// --max-not-exercised; none: NOT_EXERCISED runs never fail the gate by their number.
  std::optional<not_exercised_limit> max_not_exercised;
  const std::atomic<bool>* stop_requested = nullptr;
};

struct run_result {
  std::string scenario;
  std::string shape;
  expectation expect = expectation::must_recover;
  std::string key;
  std::uint32_t seed = 0;
  std::string checksum; // the algorithm the object was uploaded with ("" for none)
  nlohmann::json rules; // the rules document installed for the run
  judged_run judged;
  int exit_code = -1;
  double seconds = 0;
  std::string stderr_tail; // the reader's last lines on stderr
  traffic seen;
  /// A writer's multipart uploads it left open on the key (the gate aborts them); nullopt when
  /// the store cannot list them (then `open_uploads_problem` says why) or for readers.
  std::optional<std::size_t> open_uploads;
  std::string open_uploads_problem;
  std::string repro;      // a failing run's repro.sh (run_repro.hpp); empty for the others
  std::string repro_file; // where that script was written, or empty
  std::string kept;       // where its files were kept (--keep-failed), or empty
  /// False for a shard's dependency baseline: made only to decide the shard's own runs of its
  /// shape; another shard owns it, and only owned runs count.
  bool owned = true;
};

/// Where failing runs' files go, repro.sh included: --keep-failed, else `repro_dir`.
std::string failed_runs_dir(const gate_settings& settings);

/// A result that names its run (scenario, shape, expectation, key, seed) and nothing else yet.
run_result named_result(const planned_run& planned);

/// Which shard owns one run of the whole plan.
struct run_owner {
  std::string key;
  unsigned shard = 1;
};

/// One shard's report that a merged report was made from (`s3fault gate merge`).
struct merged_part {
  std::string file;
  runtime::shard shard;
  std::string started_at;
  double seconds = 0;
};

struct gate_report {
  run_role role = run_role::reader;
  std::string client;   // the reader or writer, as the user gave it
  std::string upstream; // the URL, or "embedded origin"
  /// The store the runs were judged against, named so that shards' reports can be compared: the
  /// URL, or "embedded origin (s3fault VERSION)" (store_name).
  std::string store;
  std::string region;      // the region the store's requests were signed for
  std::string working_dir; // the gate's: relative paths in the reader's command are from there
  std::string started_at;
  double seconds = 0;
  double timeout_seconds = 0;
  unsigned jobs = 1;
  std::uint64_t seed = 1;
  std::vector<const scenario*> scenarios; // selected, in order (point into the settings' matrix)
  std::vector<const object_shape*> shapes;
  std::vector<run_result> runs; // in plan order, whatever order they finished in
  std::string repro_dir;        // where the failing runs' repro.sh are (--keep-failed or not)
  std::size_t runs_planned = 0;
  std::vector<unplanned_scenario> unplanned; // selected scenarios with no run, and why
  std::vector<run_result> cut_off;           // planned runs stopped before a verdict (named only)
  bool interrupted = false;                  // a stop signal cut runs off
  std::string error; // why the gate could not judge (exit 2); empty if it could
  /// The globs the runs were selected with (--scenarios, --shapes, --exclude).
  std::vector<std::string> scenario_globs, shape_globs, exclude_globs;
  runtime::shard shard; // the part of the plan this report holds; unsharded: all of it
  std::optional<not_exercised_limit> max_not_exercised; // --max-not-exercised
  /// Sharded: every run of the whole plan (runs_planned of them) and its owner, in plan order.
  std::vector<run_owner> owners;
  std::vector<merged_part> parts; // a merged report's shards; empty otherwise
  /// What `scenarios`, `shapes` and `unplanned` point into when the report was read back from
  /// JSON (gate_report_read.hpp); null when they point into the gate's settings.
  std::shared_ptr<const gate_matrix> matrix_read;
};

struct gate_observer {
  std::function<void(const std::string& upstream, const std::string& proxy)> started;
  std::function<void(const run_result&)> run_done; // called from one thread at a time
};

/// The gate could not judge: the reader cannot run, the store refused the objects, the options
/// select nothing. Exit status 2.
class gate_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Runs the gate. When it cannot judge (a gate_error, or any other failure) the report says why
/// in `error`, with the runs that finished before; it never throws.
gate_report run_gate(const gate_settings& settings, const gate_observer& observer = {});

/// The report of a gate that could not start: its settings as given and `error`.
gate_report error_report(run_role role, const std::string& client, const std::string& error);

/// The name a report gives its store: `upstream` (the URL), or for the gate's embedded origin
/// "embedded origin (s3fault VERSION)", so that reports judged against different stores differ.
std::string store_name(const std::string& upstream);

/// Runs counted by the verdict their exit and bytes earned (judged_run::observed).
struct verdict_tally {
  std::size_t correct = 0, rejected = 0, silent_corruption = 0, hung = 0; // readers
  std::size_t stored = 0, silent_loss = 0, torn = 0;                      // writers
  void add(verdict observed);
};

struct gate_totals {
  std::size_t passed = 0, failed = 0, not_exercised = 0, not_judged = 0;
  /// The verdicts of the judged runs (passed or failed): what the closing line's parenthesis
  /// counts. A NOT_EXERCISED run's verdict is not among them: it says nothing about a fault.
  verdict_tally judged;
  /// The verdicts of every run counted, NOT_EXERCISED ones included (the JSON's `verdicts`).
  verdict_tally observed;
  std::size_t exercised_fault_runs = 0; // judged runs of scenarios that need an injection
  std::size_t fault_runs = 0;           // runs of scenarios that need an injection
  std::size_t judged_scenario_runs = 0; // runs other than the baselines that passed or failed
  /// The runs counted: every run made (a shard's: every run it owns).
  std::size_t runs() const { return passed + failed + not_exercised + not_judged; }
};
/// The runs of `report` counted (a shard's own runs only).
gate_totals count_runs(const gate_report& report);

/// Of a group of runs (one scenario's, one expectation's, all): how many were judged (passed or
/// failed), how many were NOT_EXERCISED and how many NOT_JUDGED.
struct coverage_count {
  std::size_t runs = 0, judged = 0, not_exercised = 0, not_judged = 0;
};
/// How much of the gate said something, per scenario and per expectation: a pass of 49 runs
/// beside 52 not exercised is not the pass of 101.
struct gate_coverage {
  coverage_count all;
  std::vector<std::pair<expectation, coverage_count>> by_expectation; // those with runs
  std::vector<std::pair<std::string, coverage_count>> by_scenario;    // in the report's order
  /// --max-not-exercised was given and `all.not_exercised` is more than it allows.
  bool limit_exceeded = false;
};
/// The coverage of the runs of `report` counted (a shard's own runs only).
gate_coverage count_coverage(const gate_report& report);
/// "52 of 130 runs not exercised (40 %)".
std::string not_exercised_text(const coverage_count& count);
/// The process's exit status, and what every report says: 2 when the gate could not judge, 130
/// when it was interrupted, 1 when a run failed or was not judged, when nothing but the
/// baselines was judged, when no fault reached the client, or when more runs were not exercised
/// than --max-not-exercised allows; else 0. A shard's says only what it can judge alone (its
/// owned runs failed or not judged: 1); the three rules about the whole come from `gate merge`.
int gate_exit_status(const gate_report& report);
/// One line on why the exit status is what it is.
std::string exit_status_reason(const gate_report& report);

} // namespace s3fault::gate
