#include "cli/gate_repro_command.hpp"

#include "cli/gate_command.hpp"
#include "conformance/gate/gate_report_read.hpp"
#include "conformance/gate/gate_reports.hpp"
#include "conformance/gate/report_repro.hpp"
#include "conformance/origin/embedded_origin.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

namespace s3fault::cli {
namespace {

namespace fs = std::filesystem;

struct gate_repro_options {
  std::string report_file;
  std::string run;
  std::string output; // empty: the script on stdout
};

/// The report in `file`, or nullopt with the problem on stderr.
std::optional<gate::gate_report> read_report(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    std::cerr << "s3fault gate repro: " << file << ": cannot read: " << std::strerror(errno)
              << "\n";
    return std::nullopt;
  }
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  try {
    return gate::read_gate_report(nlohmann::json::parse(text));
  } catch (const nlohmann::json::parse_error& bad) {
    std::cerr << "s3fault gate repro: " << file << ": not JSON: " << bad.what() << "\n";
  } catch (const std::invalid_argument& bad) {
    std::cerr << "s3fault gate repro: " << file << ": " << bad.what() << "\n";
  }
  return std::nullopt;
}

/// Each run as RUN names it, with its verdict and how it counted.
void list_runs(const gate::gate_report& report) {
  for (const auto& run : report.runs) {
    std::cout << run.scenario << "/" << run.shape << "  " << gate::to_string(run.judged.result)
              << " (" << gate::to_string(run.judged.outcome) << ")"
              << (run.owned ? "" : " (another shard's)") << "\n";
  }
}

/// Where the command's relative paths are found: the gate's directory when this machine has it
/// (the report was made here), else the current one.
std::string working_dir_for(const gate::gate_report& report) {
  std::error_code ignored;
  if (!report.working_dir.empty() && fs::is_directory(report.working_dir, ignored)) {
    return report.working_dir;
  }
  return fs::current_path(ignored).string();
}

int write_script(const std::string& script, const std::string& output) {
  if (output.empty()) {
    std::cout << script;
    return 0;
  }
  std::ofstream out(output, std::ios::binary | std::ios::trunc);
  if (!out.write(script.data(), static_cast<std::streamsize>(script.size()))) {
    std::cerr << "s3fault gate repro: cannot write " << output << ": " << std::strerror(errno)
              << "\n";
    return 2;
  }
  out.close();
  std::error_code ignored;
  fs::permissions(output, fs::perms::owner_exec | fs::perms::group_exec, fs::perm_options::add,
                  ignored);
  std::cerr << "repro: bash " << fs::absolute(output).string() << "\n";
  return 0;
}

int run_gate_repro(const gate_repro_options& options) {
  const auto report = read_report(options.report_file);
  if (!report) {
    return 2;
  }
  if (options.run.empty()) {
    list_runs(*report);
    return 0;
  }
  const auto* run = gate::find_report_run(*report, options.run);
  if (run == nullptr) {
    std::cerr << "s3fault gate repro: " << options.report_file << " has no run '" << options.run
              << "' (a run is SCENARIO/SHAPE or its key; `s3fault gate repro "
              << options.report_file << "` lists them)\n";
    return 2;
  }
  gate::repro_machine machine;
  machine.s3fault = fs::read_symlink("/proc/self/exe").string();
  machine.working_dir = working_dir_for(*report);
  machine.embedded_credentials = *origin::embedded_origin::default_settings().credentials;
  machine.client_command = [&](const std::string& client) {
    std::string ignored; // a built-in this binary lacks runs as given, and fails as such
    return gate_client_command(report->role, client, ignored).value_or(client);
  };
  std::string problem;
  const auto inputs = gate::report_run_repro(*report, *run, machine, problem);
  if (!inputs) {
    std::cerr << "s3fault gate repro: " << problem << "\n";
    return 2;
  }
  return write_script(gate::repro_script(*inputs), options.output);
}

} // namespace

subcommand_runner add_gate_repro_command(CLI::App& gate) {
  auto options = std::make_shared<gate_repro_options>();
  auto* repro = gate.add_subcommand(
      "repro", "Writes the repro.sh of any run of a gate's JSON report, passing or not "
               "('s3fault gate repro --help')");
  repro->footer(
      "\nWrites the repro.sh of one run of a gate's JSON report (--json): a passing or not\n"
      "exercised run as much as a failing one, the same script the gate writes for its failing\n"
      "runs (docs/gate.md, \"A repro for every run\"). bash it from any directory: it starts an\n"
      "origin like the gate's (or uses the report's --upstream, with the keys from\n"
      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY), makes the run's object from its shape and\n"
      "seed, runs `s3fault proxy` with the run's rules and the reader or writer as the gate did,\n"
      "and judges. A failing run's script exits 1 when its failure reproduces, 0 when not; a\n"
      "passing one's exits 0 when its verdict reproduces with its fault applied (the proxy's\n"
      "journal), 1 when not; both 2 when the repro cannot run.\n"
      "RUN is SCENARIO/SHAPE (strip-parts-count/mp-8MiB+1) or the run's key; without it the\n"
      "report's runs are listed. Relative paths in the reader's command are found from the\n"
      "gate's directory when this machine has it, else from the current one.\n\n"
      "Examples:\n"
      "  s3fault gate repro gate.json                          # the runs and their verdicts\n"
      "  s3fault gate repro gate.json corrupt/mp-8MiB+1 -o repro.sh && bash repro.sh\n");
  repro->add_option("report", options->report_file, "The gate's JSON report (--json)")->required();
  repro->add_option("run", options->run, "SCENARIO/SHAPE or the run's key; omitted: list the runs");
  repro->add_option("-o,--output", options->output,
                    "Write the script to FILE (made executable) instead of stdout");
  return {repro, [options] { return run_gate_repro(*options); }};
}

} // namespace s3fault::cli
