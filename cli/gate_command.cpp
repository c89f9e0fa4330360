#include "cli/gate_command.hpp"

#include "cli/command_support.hpp"
#include "cli/gate_merge_command.hpp"
#include "cli/gate_repro_command.hpp"
#include "cli/stop_signals.hpp"
#include "conformance/gate/gate_matrix.hpp"
#include "conformance/gate/gate_reports.hpp"
#include "conformance/gate/reader_process.hpp"
#include "conformance/origin/embedded_origin.hpp"
#include "conformance/readers/readers.hpp"
#include "conformance/writers/writers.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace s3fault::cli {
namespace {

struct gate_options {
  std::string reader;
  std::string writer;
  std::string upstream;
  std::string access_key;
  std::string secret_key;
  std::string region;
  std::vector<std::string> scenarios{"*"}; // globs, split at commas as parsed
  std::vector<std::string> shapes{"*"};
  std::vector<std::string> exclude;
  std::vector<std::string> scenario_files;
  double timeout_seconds = 60;
  unsigned jobs = 1;
  std::string keep_failed;
  std::string json_file;
  std::string junit_file;
  std::string colour = "auto";
  std::uint64_t seed = 1;
  std::string work_dir;
  bool show_repro = false;
  bool list = false;
  std::string max_not_exercised; // a count or a share ("25%"); empty: no limit
  shard_options shard;
  runtime::shard part; // --shard resolved: which runs this process makes
};

std::string column(std::string_view text, std::size_t width) {
  std::string padded(text);
  padded.append(padded.size() < width ? width - padded.size() : 1, ' ');
  return padded;
}

void print_catalog(gate::run_role role, const gate::gate_matrix& matrix) {
  std::cout << "Scenarios (--scenarios; baseline always runs first):\n";
  for (const auto& s : matrix.scenarios) {
    std::cout << "  " << column(s.name, 28) << column(gate::to_string(s.expect), 18)
              << s.description << "\n";
    for (const auto& rule : s.rules_text) {
      std::cout << std::string(48, ' ') << "rule: " << rule << "\n";
    }
    if (s.shape_globs != std::vector<std::string>{"*"} || s.multipart_only) {
      std::string shapes;
      for (const auto& glob : s.shape_globs) {
        shapes += (shapes.empty() ? "" : ", ") + glob;
      }
      std::cout << std::string(48, ' ') << "shapes: " << shapes
                << (s.multipart_only ? " (multipart only)" : "") << "\n";
    }
    if (s.action != gate::scenario_action::none) {
      std::cout << std::string(48, ' ') << "action: " << gate::to_string(s.action) << "\n";
    }
    if (!s.needs_injection) {
      std::cout << std::string(48, ' ') << "judged without an injection\n";
    }
    if (s.timeout) {
      std::cout << std::string(48, ' ')
                << "timeout: " << std::chrono::duration<double>(*s.timeout).count()
                << " s (not --timeout)\n";
    }
  }
  std::cout << "Shapes (--shapes):\n";
  for (const auto& shape : matrix.shapes) {
    std::cout << "  " << column(shape.name, 28) << shape.description << " (checksum "
              << shape.checksum << ")\n";
  }
  if (role == gate::run_role::writer) {
    std::cout << "Built-in writers (--writer builtin:NAME):";
    for (const auto& name : writers::writer_names()) {
      std::cout << " " << name;
    }
    std::cout << "\nExample writers: examples/writers/ (docs/writers.md)\n";
    return;
  }
  std::cout << "Built-in readers (--reader builtin:NAME):";
  for (const auto& name : readers::reader_names()) {
    std::cout << " " << name;
  }
  std::cout << "\n";
}

/// The role's built-in matrix plus the scenario files'; nullopt when a file has mistakes (all
/// printed).
std::optional<gate::gate_matrix> load_matrix(gate::run_role role,
                                             const std::vector<std::string>& files) {
  // One pass over every file, the role's checks included, so that every mistake is listed.
  std::vector<std::string> errors;
  gate::gate_matrix matrix = gate::load_gate_matrix(role, files, errors);
  if (errors.empty()) {
    return matrix;
  }
  std::cerr << "s3fault gate: the scenario files have " << errors.size()
            << (errors.size() == 1 ? " mistake" : " mistakes") << ":\n";
  for (const auto& error : errors) {
    std::cerr << "  " << error << "\n";
  }
  return std::nullopt;
}

/// Writes the reports asked for; the exit status they say, or 2 when one cannot be written.
int finish_gate(const gate_options& options, const gate::gate_report& report) {
  const bool written = write_report_files(
      "gate", {{options.json_file, [&] { return gate::gate_json_report(report); }},
               {options.junit_file, [&] { return gate::gate_junit_report(report); }}});
  return written ? gate::gate_exit_status(report) : 2;
}

/// The gate cannot start: each reason on stderr, and all of them (joined by "; ") in every report
/// asked for (exit 2).
int refuse_gate(const gate_options& options, gate::run_role role,
                const std::vector<std::string>& reasons) {
  std::string joined;
  for (const auto& reason : reasons) {
    std::cerr << "s3fault gate: " << reason << "\n";
    joined += (joined.empty() ? "" : "; ") + reason;
  }
  const auto& client = role == gate::run_role::writer ? options.writer : options.reader;
  auto report = gate::error_report(role, client, joined);
  report.shard = options.part; // so that `gate merge` names the shard that could not judge
  return finish_gate(options, report);
}

int refuse_gate(const gate_options& options, gate::run_role role, const std::string& error) {
  return refuse_gate(options, role, std::vector<std::string>{error});
}

/// Every usage mistake of the gate's options at once, added to `mistakes`, and the command that
/// runs the reader or writer. Checked here rather than by CLI11 (needs, excludes), whose parse
/// errors would skip the --json and --junit reports a refusal still writes.
std::optional<std::string> check_gate_options(const gate_options& options, gate::run_role role,
                                              std::vector<std::string>& mistakes) {
  std::optional<std::string> command;
  if (options.reader.empty() == options.writer.empty()) {
    mistakes.emplace_back("give one of --reader or --writer (a command, or builtin:NAME; --list "
                          "shows the built-in ones)");
  } else {
    std::string error;
    command = gate_client_command(
        role, role == gate::run_role::writer ? options.writer : options.reader, error);
    if (!command) {
      mistakes.push_back(std::move(error));
    }
  }
  if (options.access_key.empty() != options.secret_key.empty()) {
    mistakes.emplace_back("--access-key and --secret-key go together");
  }
  if (auto refusal = store_url_refusal("--upstream", options.upstream); !refusal.empty()) {
    mistakes.push_back(std::move(refusal));
  }
  if (!options.max_not_exercised.empty()) {
    std::string error;
    if (!gate::parse_not_exercised_limit(options.max_not_exercised, error)) {
      mistakes.push_back(std::move(error));
    }
  }
  return command;
}

/// The settings of a gate the options describe; nullopt with every mistake added to `mistakes`
/// (or when it already holds one) when they cannot be used.
std::optional<gate::gate_settings> gate_settings_from(const gate_options& options,
                                                      gate::run_role role, gate::gate_matrix matrix,
                                                      std::vector<std::string>& mistakes) {
  const auto command = check_gate_options(options, role, mistakes);
  if (!mistakes.empty()) {
    return std::nullopt;
  }
  gate::gate_settings settings;
  settings.role = role;
  settings.client = role == gate::run_role::writer ? options.writer : options.reader;
  settings.client_command = *command;
  settings.upstream = options.upstream;
  // Without --upstream, the embedded origin's keys and region: the environment's are for a store.
  const auto embedded = origin::embedded_origin::default_settings();
  settings.credentials = options.upstream.empty()
                             ? *embedded.credentials
                             : credentials_or_environment(options.access_key, options.secret_key);
  settings.region =
      options.upstream.empty() ? embedded.region : region_or_environment(options.region);
  settings.scenario_globs = options.scenarios;
  settings.shape_globs = options.shapes;
  settings.exclude_globs = options.exclude;
  settings.matrix = std::move(matrix);
  settings.jobs = options.jobs;
  // Absolute: the repro.sh paths printed work from any directory.
  settings.keep_failed =
      options.keep_failed.empty() ? "" : std::filesystem::absolute(options.keep_failed).string();
  settings.s3fault = std::filesystem::read_symlink("/proc/self/exe").string();
  settings.timeout = std::chrono::milliseconds(static_cast<long>(options.timeout_seconds * 1000));
  settings.seed = options.seed;
  settings.shard = options.part;
  if (!options.max_not_exercised.empty()) {
    std::string ignored; // checked by check_gate_options
    settings.max_not_exercised =
        gate::parse_not_exercised_limit(options.max_not_exercised, ignored);
  }
  return settings;
}

/// The scratch directory: --work-dir, or a new temporary one (`own` then says to remove it).
std::optional<std::string> make_work_dir(const gate_options& options, bool& own) {
  own = options.work_dir.empty();
  return own ? make_temporary_directory("s3fault-gate.") : options.work_dir;
}

/// Removes the directory the gate made for the repro.sh files when no run failed.
void remove_if_empty(const std::string& dir) {
  std::error_code ignored;
  if (!dir.empty() && std::filesystem::is_empty(dir, ignored)) {
    std::filesystem::remove(dir, ignored);
  }
}

int run_gate_command(gate_options options) {
  const auto part = resolve_shard("s3fault gate: ", options.shard);
  if (!part) {
    return 2;
  }
  options.part = *part;
  options.json_file = runtime::expand_shard_path(options.json_file, *part);
  options.junit_file = runtime::expand_shard_path(options.junit_file, *part);
  const auto role = options.writer.empty() ? gate::run_role::reader : gate::run_role::writer;
  auto matrix = load_matrix(role, options.scenario_files);
  if (!matrix) {
    return refuse_gate(options, role, "the scenario files have mistakes (listed above)");
  }
  if (options.list) {
    print_catalog(role, *matrix);
    return 0;
  }
  std::vector<std::string> mistakes;
  if (!report_paths_writable("gate",
                             {{"--json", options.json_file}, {"--junit", options.junit_file}})) {
    mistakes.emplace_back("a report file cannot be written");
  }
  auto settings = gate_settings_from(options, role, std::move(*matrix), mistakes);
  if (!settings) {
    return refuse_gate(options, role, mistakes);
  }
  bool own_work_dir = false;
  const auto work_dir = make_work_dir(options, own_work_dir);
  if (!work_dir) {
    return refuse_gate(options, role,
                       "cannot create a scratch directory in " +
                           std::filesystem::temp_directory_path().string());
  }
  settings->work_dir = *work_dir;
  if (settings->keep_failed.empty()) {
    // Failing runs' repro.sh go here; the closing lines name it.
    settings->repro_dir = make_temporary_directory("s3fault-gate-repro.").value_or("");
  }

  // Ctrl-C kills the running readers' groups at once; the finished runs are reported (exit 130).
  static std::atomic<bool> stop_requested{false};
  block_stop_signals();
  stop_on_signals([] { stop_requested = true; });
  settings->stop_requested = &stop_requested;

  gate::gate_text_report table(std::cout, use_colour(options.colour), options.show_repro);
  gate::gate_observer observer;
  observer.started = [&](const std::string& upstream, const std::string& proxy) {
    table.begin(settings->role, settings->client, upstream, proxy, settings->shard);
  };
  observer.run_done = [&](const gate::run_result& run) { table.run_done(run); };
  const auto report = gate::run_gate(*settings, observer);
  if (own_work_dir) {
    std::filesystem::remove_all(settings->work_dir);
  }
  remove_if_empty(settings->repro_dir);
  if (!report.error.empty()) {
    std::cerr << "s3fault gate: " << report.error << "\n";
  } else {
    table.finish(report);
  }
  return finish_gate(options, report);
}

/// What `s3fault gate --help` says above the options.
constexpr const char* gate_about =
    "Puts an S3 reader through store misbehaviours and fails when it returns wrong bytes\n"
    "silently, hangs, or gives up where the right bytes could be had.\n"
    "For each object shape and fault scenario (--list shows them) it uploads the object\n"
    "straight to the store, installs the scenario's fault rules (limited to the run's key) in "
    "a\n"
    "proxy started in this process, runs the reader against the proxy and compares what it\n"
    "wrote with the object.\n\n"
    "The reader command runs under bash -c in its own process group with these placeholders\n"
    "(shell-quoted) and environment variables:\n"
    "  {endpoint} S3FAULT_ENDPOINT   the proxy, http://127.0.0.1:PORT\n"
    "  {bucket}   S3FAULT_BUCKET     {key} S3FAULT_KEY\n"
    "  {output}   S3FAULT_OUTPUT     where to write the object (or write it to stdout)\n"
    "  AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION, AWS_DEFAULT_REGION, HOME "
    "(scratch)\n"
    "It must exit 0 when it read the object and non-zero when it failed.\n\n"
    "With --writer instead, the command uploads the file {input} (S3FAULT_INPUT) to\n"
    "s3://{bucket}/{key} through {endpoint} and exits 0 when it believes the upload "
    "succeeded.\n"
    "The writers' own matrix runs (--writer ... --list shows it); after each run the gate "
    "reads\n"
    "the key straight from the store and judges: STORED (exit 0, the store holds the input),\n"
    "REJECTED (non-zero exit, the key holds nothing, the input or the object it held "
    "before),\n"
    "SILENT_LOSS (exit 0, the key holds nothing, the old object or other bytes: always "
    "fails),\n"
    "TORN (non-zero exit, other bytes under the key: always fails), HUNG. Multipart uploads "
    "it\n"
    "left open are reported, then aborted.\n\n"
    "Nothing passes that was not judged:\n"
    "  - a reader that cannot run (exit 126/127, or it ended without a request to the proxy)\n"
    "    is a gate error, exit 2;\n"
    "  - the baseline (no fault) runs first on every shape; where the reader does not read "
    "it\n"
    "    CORRECT (the writer does not store it), every other run of that shape is NOT_JUDGED\n"
    "    and the gate fails;\n"
    "  - a run that would pass while its fault never reached the reader (no injection on its\n"
    "    key: it read in a way no rule matched) is NOT_EXERCISED: never a pass, counted "
    "apart;\n"
    "    when no fault reached the reader in any run the gate fails.\n\n"
    "Verdicts: CORRECT; REJECTED (non-zero exit); SILENT_CORRUPTION (exit 0, wrong bytes);\n"
    "HUNG (killed at --timeout); NOT_EXERCISED; NOT_JUDGED. Expectations: must-recover (only\n"
    "CORRECT passes), must-not-corrupt (CORRECT or REJECTED pass), informational.\n"
    "SILENT_CORRUPTION and HUNG always fail.\n\n"
    "Every failing run gets a repro.sh (in --keep-failed DIR, else in a new temporary "
    "directory\n"
    "named at the end; also in --json and --junit): bash it from any directory to make the "
    "run\n"
    "again (an origin like the gate's or the same --upstream, with the keys from\n"
    "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY; the object in a bucket of its own, removed\n"
    "afterwards; the proxy with the run's rules and seed; the same --timeout) and judge it "
    "as\n"
    "the gate does: exit 1 when the failing verdict reproduces, 0 when not, 2 when it cannot\n"
    "run. The terminal prints each one's path (--show-repro: the script).\n"
    "Exit status: 0 when every run passed or was not exercised (and some fault was), 1 when "
    "a\n"
    "run failed or was not judged, or more runs were not exercised than --max-not-exercised\n"
    "allows, 2 when the gate could not judge (bad options or scenario files, a reader that\n"
    "cannot run, a store that refused the objects), 130 on Ctrl-C (the finished runs are\n"
    "reported). The end of the table says how many runs of each scenario and expectation were\n"
    "judged and how many not exercised (also in --json and --junit).\n\n"
    "On more than one machine: --shard K/N (or auto, from the launcher) makes only the runs\n"
    "shard K owns (the plan's runs dealt out by a hash of their keys, the same on every\n"
    "machine) plus the baselines they rest on, against --upstream or, without it, an embedded\n"
    "origin of its own (each report names its store; merge refuses parts of different stores).\n"
    "{shard} in --json and --junit is replaced by K. A shard exits 1 only when a run it owns\n"
    "failed or was not judged; `s3fault gate merge s1.json s2.json ...` gives the verdict of\n"
    "the whole (docs/gate.md, \"Running on more than one machine\").\n\n"
    "Examples:\n"
    "  s3fault gate --reader builtin:naive-parts        # the reader that caused the bug: "
    "fails\n"
    "  s3fault gate --reader builtin:robust-parts       # passes\n"
    "  s3fault gate --reader examples/readers/aws-cli.sh --jobs 4 --junit gate.xml\n"
    "  s3fault gate --writer builtin:naive                # fails: SILENT_LOSS\n"
    "  s3fault gate --writer examples/writers/boto3-upload-file.py --jobs 2\n"
    "  s3fault gate --reader 'my-tool get s3://{bucket}/{key} -o {output} --endpoint "
    "{endpoint}' "
    "\\"
    "\n    --scenario-file our-bugs.yaml --scenarios 'our-*,truncate-*' --keep-failed "
    "failed/\n"
    "  s3fault gate --reader builtin:robust-parts --upstream http://127.0.0.1:9000 \\\n"
    "    --shard 2/3 --json s{shard}.json      # then: s3fault gate merge s1.json s2.json "
    "s3.json";

/// The gate's options. Its usage mistakes (one of --reader and --writer, the keys together, a
/// limit that is not one) are checked by gate_settings_from, not by CLI11, so that --json
/// and --junit still get a report saying what was wrong.
void declare_gate_options(CLI::App& command, gate_options& o) {
  command.add_option("--reader", o.reader,
                     "The reader: a shell command, or builtin:naive-parts, builtin:robust-parts, "
                     "builtin:ranged");
  command.add_option("--writer", o.writer,
                     "The writer instead of a reader: a shell command that uploads {input} to "
                     "{bucket}/{key} (examples/writers/), or builtin:naive, builtin:careful");
  command.add_option("--upstream", o.upstream,
                     "The store, http(s)://HOST:PORT; default: an embedded origin started here");
  command.add_option("--access-key", o.access_key,
                     "Access key for --upstream (default: $AWS_ACCESS_KEY_ID)");
  command.add_option("--secret-key", o.secret_key,
                     "Secret key for --upstream (default: $AWS_SECRET_ACCESS_KEY)");
  command.add_option(
      "--region", o.region,
      "Region to sign for (default: $AWS_REGION, else $AWS_DEFAULT_REGION, else us-east-1)");
  command
      .add_option("--scenarios", o.scenarios,
                  "Only the scenarios matching these globs (comma-separated or repeated); "
                  "baseline always runs")
      ->delimiter(',');
  command
      .add_option("--shapes", o.shapes,
                  "Only the object shapes matching these globs (comma-separated or repeated)")
      ->delimiter(',');
  command
      .add_option("--exclude", o.exclude, "Leave out the scenarios and shapes matching these globs")
      ->delimiter(',');
  command.add_option("--scenario-file", o.scenario_files,
                     "Add the scenarios and shapes of this YAML file (repeatable; format in "
                     "docs/gate.md); checked before anything runs");
  command
      .add_option("--timeout", o.timeout_seconds,
                  "Seconds a reader or writer may run before it is killed and judged HUNG")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command
      .add_option("--jobs", o.jobs,
                  "Runs at a time, each with its own proxy and key (verdicts do not depend "
                  "on it)")
      ->check(CLI::Range(1u, 64u))
      ->capture_default_str();
  command.add_option("--json", o.json_file,
                     "Write every run (verdict, why, rules, seed, traffic, repro) as JSON");
  command.add_option("--junit", o.junit_file,
                     "Write JUnit XML: one testsuite per scenario, one testcase per shape "
                     "(NOT_EXERCISED and NOT_JUDGED as skipped)");
  command.add_option("--color", o.colour, "auto, always or never")
      ->check(CLI::IsMember({"auto", "always", "never"}))
      ->capture_default_str();
  command
      .add_option("--seed", o.seed,
                  "Seed of the object bytes and the rules' dice (each run's seed derives from "
                  "it and the run's names)")
      ->capture_default_str();
  command.add_option("--work-dir", o.work_dir,
                     "Scratch space for the runs (each run's files are removed when it ends; "
                     "--keep-failed keeps failing ones); default: a temporary directory, "
                     "removed afterwards");
  command.add_option("--keep-failed", o.keep_failed,
                     "Keep each failing run's output, reader stdout/stderr and repro.sh in "
                     "DIR/<scenario>.<shape>/ (without it only the repro.sh files are written, "
                     "to a new temporary directory)");
  command.add_flag("--show-repro", o.show_repro,
                   "Also print each failing run's repro.sh at the end (by default only its "
                   "path)");
  command.add_option("--max-not-exercised", o.max_not_exercised,
                     "Fail (exit 1) when more runs than this were NOT_EXERCISED: a number of "
                     "runs (10) or a share of them (25%); default: no limit");
  command.add_flag("--list", o.list,
                   "Print scenarios (with their rules), shapes and built-in readers (with "
                   "--writer: the writers' matrix)");
  add_shard_options(&command, o.shard, "runs");
}

} // namespace

std::optional<std::string> gate_client_command(gate::run_role role, const std::string& given,
                                               std::string& error) {
  constexpr std::string_view prefix = "builtin:";
  if (given.rfind(prefix, 0) != 0) {
    return given;
  }
  const bool writer = role == gate::run_role::writer;
  const std::string name = given.substr(prefix.size());
  const auto& known = writer ? writers::writer_names() : readers::reader_names();
  if (std::find(known.begin(), known.end(), name) == known.end()) {
    const std::string role_word(gate::role_name(role));
    error =
        "--" + role_word + " " + given + ": no built-in " + role_word + " '" + name + "' (known:";
    for (const auto& each : known) {
      error += " builtin:" + std::string(each);
    }
    error += ")";
    return std::nullopt;
  }
  const auto self = std::filesystem::read_symlink("/proc/self/exe").string();
  return gate::shell_quote(self) + (writer ? " write " : " read ") + name +
         " --endpoint {endpoint} --bucket {bucket} --key {key}" +
         (writer ? " --input {input}" : " --output {output}");
}

std::function<int()> add_gate_command(CLI::App& app) {
  auto options = std::make_shared<gate_options>();
  auto* command = app.add_subcommand("gate", gate_about);
  declare_gate_options(*command, *options);
  auto merge = add_gate_merge_command(*command);
  auto repro = add_gate_repro_command(*command);
  return [options, merge, repro]() {
    if (merge.parsed()) {
      return merge.run();
    }
    return repro.parsed() ? repro.run() : run_gate_command(*options);
  };
}

} // namespace s3fault::cli
