#pragma once
// Named bundles of rules for well-known storage misbehaviours (`--preset NAME[:key=value,...]`).
// Each preset is written as one-line `--fault` specs with {placeholders}, so what a preset does
// reads exactly like what a user would type, and it goes through the same validation.
#include "faults/action_registry.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::faults::config {

struct preset_parameter {
  std::string_view name;
  std::string_view default_value; // empty: left out unless given
  std::string_view meaning;
};

struct preset {
  std::string_view name;
  std::string_view description; // one paragraph, for --help and docs/faults.md
  /// One-line specs, one per rule; "{NAME}" stands for the value of parameter NAME.
  std::vector<std::string_view> specs;
  /// The preset's own parameters; common_preset_parameters() apply to every preset.
  std::vector<preset_parameter> parameters;
};

/// Every preset, in the order of the docs.
const std::vector<preset>& presets();
/// nullptr for an unknown name.
const preset* find_preset(std::string_view name);
/// Parameters every preset takes: p (probability), bucket, key (globs) and name (the rule name,
/// to use one preset twice).
const std::vector<preset_parameter>& common_preset_parameters();

/// "--preset N ('TEXT')": what names a preset in error messages; N is 1-based.
std::string preset_origin(std::string_view text, std::size_t number);

/// Expands "NAME" or "NAME:key=value,key=value" into rule JSON (named NAME, or NAME-1, NAME-2
/// ... for several rules). Mistakes in the text are appended to `errors` without a prefix;
/// values are checked later by parse_rules, like any rule's.
std::optional<std::vector<nlohmann::json>> expand_preset(std::string_view text, error_list& errors);

} // namespace s3fault::faults::config
