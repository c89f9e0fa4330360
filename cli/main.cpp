// s3fault: one binary, one subcommand per job.
#include "cli/audit_command.hpp"
#include "cli/bench_command.hpp"
#include "cli/completion_command.hpp"
#include "cli/demo_command.hpp"
#include "cli/fixture_command.hpp"
#include "cli/gate_command.hpp"
#include "cli/journal_command.hpp"
#include "cli/origin_command.hpp"
#include "cli/profile_command.hpp"
#include "cli/proxy_command.hpp"
#include "cli/read_command.hpp"
#include "cli/report_command.hpp"
#include "cli/write_command.hpp"
#include "runtime/build_info.hpp"

#include <CLI/CLI.hpp>

#include <cstdlib>
#include <string_view>

int main(int argc, char** argv) {
  CLI::App app{"s3fault: makes S3 storage bugs happen on demand.\n"
               "Run 's3fault SUBCOMMAND --help' for the options of each job."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "s3fault " + std::string(s3fault::runtime::build_version()));
  auto run_proxy = s3fault::cli::add_proxy_command(app);
  auto run_origin = s3fault::cli::add_origin_command(app);
  auto run_audit = s3fault::cli::add_audit_command(app);
  auto run_gate = s3fault::cli::add_gate_command(app);
  auto run_demo = s3fault::cli::add_demo_command(app);
  auto run_read = s3fault::cli::add_read_command(app);
  auto run_write = s3fault::cli::add_write_command(app);
  auto run_bench = s3fault::cli::add_bench_command(app);
  auto run_fixture = s3fault::cli::add_fixture_command(app);
  auto run_profile = s3fault::cli::add_profile_command(app);
  auto run_journal = s3fault::cli::add_journal_command(app);
  auto run_report = s3fault::cli::add_report_command(app);
  auto run_completion = s3fault::cli::add_completion_command(app); // last: it reads the others
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // --help and --version exit 0; every bad command line exits 2 with CLI11's message.
    const int code = app.exit(error);
    return code == 0 ? 0 : 2;
  }
  // S3FAULT_PARSE_ONLY=1: the command line parsed and validated, nothing run (exit 0). How the
  // docs' command lines are checked without starting anything (test_doc_command_lines.py).
  if (const char* parse_only = std::getenv("S3FAULT_PARSE_ONLY");
      parse_only != nullptr && std::string_view(parse_only) == "1") {
    return 0;
  }
  if (app.got_subcommand("proxy")) {
    return run_proxy();
  }
  if (app.got_subcommand("origin")) {
    return run_origin();
  }
  if (app.got_subcommand("audit")) {
    return run_audit();
  }
  if (app.got_subcommand("gate")) {
    return run_gate();
  }
  if (app.got_subcommand("demo")) {
    return run_demo();
  }
  if (app.got_subcommand("read")) {
    return run_read();
  }
  if (app.got_subcommand("write")) {
    return run_write();
  }
  if (app.got_subcommand("bench")) {
    return run_bench();
  }
  if (app.got_subcommand("fixture")) {
    return run_fixture();
  }
  if (app.got_subcommand("profile")) {
    return run_profile();
  }
  if (app.got_subcommand("journal")) {
    return run_journal();
  }
  if (app.got_subcommand("report")) {
    return run_report();
  }
  if (app.got_subcommand("completion") || app.got_subcommand("manpages")) {
    return run_completion();
  }
  return 2;
}
