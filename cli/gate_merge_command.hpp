#pragma once
// `s3fault gate merge PARTS...`: the shards' JSON reports of one gate as the report of the whole.
#include "cli/command_support.hpp"

namespace s3fault::cli {

subcommand_runner add_gate_merge_command(CLI::App& gate);

} // namespace s3fault::cli
