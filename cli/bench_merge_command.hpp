#pragma once
// `s3fault bench merge PARTS...`: the shards' JSON reports of one bench as one report.
#include <CLI/App.hpp>

#include <functional>

namespace s3fault::cli {

/// A subcommand and how to run it once parsed.
struct subcommand_runner {
  CLI::App* command = nullptr;
  std::function<int()> run;
  bool parsed() const { return command->parsed(); }
};

subcommand_runner add_bench_merge_command(CLI::App& bench);

} // namespace s3fault::cli
