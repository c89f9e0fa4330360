#pragma once
// The one entry point for start-up configuration: `--preset`, `--faults FILE` and `--fault SPEC`
// together become one validated rule set, or the complete list of what is wrong with them.
//
//   --profile NAME|FILE  ──load_profile───┐
//   --preset NAME[:k=v]  ──expand_preset──┤
//   --faults FILE        ──load_rule_file─┼──> parse_rules ──> rule_build {rules, seed, errors}
//   --fault  SPEC        ──fault_spec─────┘
//
// Rules are in that order: profiles, presets, files, then specs, each in the order given.
#include "faults/config/rule_parser.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::faults::config {

/// Builds the rule set from the command line's sources. Every source and every rule is checked;
/// on any mistake `rules` is empty and `errors` lists all of them. The result's `seed` is
/// `seed_override` (`--seed`) when given, whatever the files say; otherwise the one the files
/// give, and two files giving different seeds is an error (a rule set has one engine).
struct rule_sources {
  std::vector<std::string> fault_specs; // --fault
  std::vector<std::string> rule_files;  // --faults
  std::vector<std::string> presets;     // --preset
  std::vector<std::string> profiles;    // --profile
  std::optional<std::uint64_t> seed;    // --seed
};
rule_build build_rules(const rule_sources& sources);

/// build_rules of the first three sources and a seed.
rule_build build_rules(const std::vector<std::string>& fault_specs,
                       const std::vector<std::string>& rule_files,
                       const std::vector<std::string>& presets,
                       std::optional<std::uint64_t> seed_override = std::nullopt);

} // namespace s3fault::faults::config
