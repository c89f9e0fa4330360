#pragma once
// The bash completion script of s3fault, made from the command definitions (subcommands,
// options, which options take a value, the values CLI11 validates against) and the names the
// registries hold (fault actions, presets, profiles, S3 operations for `op=`).
#include "cli/command_tree.hpp"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::cli {

struct completion_words {
  /// Values of options that CLI11 does not validate by a set, by option name ("--preset").
  std::map<std::string, std::vector<std::string>> option_values;
  /// What follows `op=` in a rule.
  std::vector<std::string> operations;
};

/// The registries' names: --fault's actions, --preset's presets, --profile's profiles, and
/// every operation of the S3 catalogue.
completion_words registry_words();

/// The script: `source <(s3fault completion bash)`, or the package's
/// /usr/share/bash-completion/completions/s3fault.
std::string bash_completion_script(const CLI::App& root, const completion_words& words,
                                   std::string_view version);

} // namespace s3fault::cli
