#pragma once
// `s3fault gate repro REPORT [RUN]`: the repro.sh of any run of a gate's JSON report, passing,
// failing or not exercised (without RUN: the report's runs, each with its verdict).
#include "cli/command_support.hpp"

namespace s3fault::cli {

subcommand_runner add_gate_repro_command(CLI::App& gate);

} // namespace s3fault::cli
