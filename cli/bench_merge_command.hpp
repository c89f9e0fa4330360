#pragma once
// `s3fault bench merge PARTS...`: the shards' JSON reports of one bench as one report.
#include "cli/command_support.hpp"

namespace s3fault::cli {

subcommand_runner add_bench_merge_command(CLI::App& bench);

} // namespace s3fault::cli
