// s3fault: one binary, one subcommand per job.
#include "cli/proxy_command.hpp"

#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
  CLI::App app{"s3fault: makes S3 storage bugs happen on demand.\n"
               "Run 's3fault SUBCOMMAND --help' for the options of each job."};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("s3fault ") + S3FAULT_VERSION);
  auto run_proxy = s3fault::cli::add_proxy_command(app);
  CLI11_PARSE(app, argc, argv);
  if (app.got_subcommand("proxy")) {
    return run_proxy();
  }
  return 2;
}
