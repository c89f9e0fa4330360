#pragma once
// One of the gate's --jobs workers: its own proxy (one thread, so replaced-between-reads can hold
// the reader back), traffic counter and store client. It makes one run at a time: upload the
// object, install the run's rules, run the reader, judge, clean up. A writer's run: write the
// input file, install the rules, run the writer, read the key from the store, judge, clean up.
#include "conformance/gate/gate_runner.hpp"
#include "conformance/gate/reader_process.hpp"
#include "conformance/gate/replace_trigger.hpp"
#include "conformance/gate/run_plan.hpp"
#include "proxy/embedded_proxy.hpp"

#include <filesystem>
#include <functional>
#include <optional>

namespace s3fault::gate {

/// What every run of a gate shares.
struct run_context {
  const gate_settings& settings;
  client::client_config store_config;
  std::string store_url; // what the repro names: the store, or "" for the embedded origin
  std::string bucket;
  std::function<bool()> stop; // Ctrl-C, or another worker hit a gate error
};

class run_worker {
public:
  explicit run_worker(const run_context& context);
  std::string proxy_url() const { return proxy_.url(); }
  /// The run's result; nullopt when it was stopped before a verdict. Throws gate_error when the
  /// reader cannot run.
  std::optional<run_result> run(const planned_run& planned);

private:
  std::optional<run_result> run_as_reader(const planned_run& planned);
  /// A writer's run: the input file written, the writer run, then the key read straight from
  /// the store and its open uploads listed (and aborted).
  std::optional<run_result> run_as_writer(const planned_run& planned);
  /// The run's scratch directory, empty but for HOME.
  std::filesystem::path fresh_run_dir(const planned_run& planned) const;
  /// Installs the run's rules on the proxy and starts counting its traffic; returns the document.
  nlohmann::json install_rules(const planned_run& planned);
  /// Runs the reader or writer against the proxy and waits for its exchanges to be counted.
  reader_exit run_client(const planned_run& planned, const std::filesystem::path& dir,
                         const std::string& input_path);
  /// What every run's result has: names, seed, traffic, exit, time, stderr.
  run_result started_result(const planned_run& planned, const std::filesystem::path& dir,
                            int exit_code, double seconds) const;
  run_result writer_result(const planned_run& planned, const std::filesystem::path& dir,
                           const reader_exit& exit, const std::string& input,
                           const std::optional<std::string>& stored,
                           const std::optional<std::string>& previous) const;
  /// A failing run: its repro.sh written, its files kept (--keep-failed). Then the scratch
  /// directory goes.
  void finish_run(const planned_run& planned, run_result& result, const std::filesystem::path& dir);
  run_result judge(const planned_run& planned, const std::string& dir, const reader_exit& exit,
                   const std::string& bytes, const std::string& replacement,
                   const replacement_outcome& replaced);
  /// The scenario's own timeout, or the gate's.
  std::chrono::milliseconds run_timeout(const planned_run& planned) const;
  /// The script that reproduces a failing run, with the rules document it installed.
  std::string repro_for(const planned_run& planned, const run_result& result) const;
  /// A failing run's repro.sh, and with --keep-failed its files, in
  /// DIR/<scenario>.<shape>/; notes where in `result.repro_file` and `result.kept`.
  void save_failed_run(run_result& result, const std::filesystem::path& dir);

  const run_context& context_;
  traffic_counter counter_;
  replace_trigger replacer_;
  client::s3_client store_;
  proxy::embedded_proxy proxy_;
};

} // namespace s3fault::gate
