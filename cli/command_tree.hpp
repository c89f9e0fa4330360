#pragma once
// The command line as CLI11 defines it, walked for the texts made from it: the man pages and the
// shell completion (docs/install.md). Made from the same definitions as --help, they cannot
// drift from it.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace s3fault::cli {

/// A command and where it sits: "s3fault", "s3fault gate", "s3fault gate merge".
struct command_node {
  const CLI::App* app;
  std::vector<std::string> path; // {"gate", "merge"}; empty for s3fault itself
};

/// s3fault and every subcommand below it, depth first, in the order they were added. Commands
/// without a description (hidden ones) are left out.
std::vector<command_node> command_tree(const CLI::App& root);

/// The options a command shows in its --help (named and positional), in their order.
std::vector<const CLI::Option*> shown_options(const CLI::App& app);

/// The subcommands a command shows in its --help.
std::vector<const CLI::App*> shown_subcommands(const CLI::App& app);

/// "-h,--help" for a named option; the positional's name for a positional.
std::string option_names(const CLI::Option& option);

/// What --help prints after the names: " TEXT:{text,json} REQUIRED ...", from CLI11's formatter.
std::string option_value_text(const CLI::App& app, const CLI::Option& option);

/// The option takes a value (it is not a flag).
bool takes_value(const CLI::Option& option);

} // namespace s3fault::cli
