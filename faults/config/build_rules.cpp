#include "faults/config/build_rules.hpp"

#include "faults/config/fault_spec.hpp"
#include "faults/config/presets.hpp"
#include "faults/config/rule_file.hpp"

namespace s3fault::faults::config {

rule_build build_rules(const std::vector<std::string>& fault_specs,
                       const std::vector<std::string>& rule_files,
                       const std::vector<std::string>& presets,
                       std::optional<std::uint64_t> seed_override) {
  error_list errors; // mistakes in the sources themselves, before any rule is looked at
  std::vector<rule_entry> entries;
  std::optional<std::uint64_t> seed;
  std::string seed_origin;

  for (std::size_t i = 0; i < presets.size(); ++i) {
    const std::string origin = preset_origin(presets[i], i + 1);
    error_list preset_errors;
    const auto rules = expand_preset(presets[i], preset_errors);
    for (const auto& message : preset_errors) {
      errors.push_back(origin + ": " + message);
    }
    if (rules) {
      for (std::size_t r = 0; r < rules->size(); ++r) {
        entries.push_back({(*rules)[r], origin, r + 1});
      }
    }
  }

  for (const auto& path : rule_files) {
    rule_document document = load_rule_file(path, errors);
    // With --seed the files' seeds are overridden, so they need not agree.
    if (document.seed && !seed_override) {
      if (seed && *seed != *document.seed) {
        errors.push_back(path + ": seed: " + std::to_string(*document.seed) +
                         " differs from the seed " + std::to_string(*seed) + " of " + seed_origin +
                         " (a rule set has one seed: give --seed N to choose it)");
      } else if (!seed) {
        seed = document.seed;
        seed_origin = path;
      }
    }
    for (auto& entry : document.entries) {
      entries.push_back(std::move(entry));
    }
  }

  for (std::size_t i = 0; i < fault_specs.size(); ++i) {
    const std::string origin = fault_spec_origin(fault_specs[i], i + 1);
    error_list spec_errors;
    auto rule = fault_spec_to_json(fault_specs[i], spec_errors);
    for (const auto& message : spec_errors) {
      errors.push_back(origin + ": " + message);
    }
    if (rule) {
      entries.push_back({std::move(*rule), origin, 0});
    }
  }

  rule_build build = parse_rules(entries);
  errors.insert(errors.end(), build.errors.begin(), build.errors.end());
  build.errors = std::move(errors);
  build.seed = seed_override ? seed_override : seed;
  if (!build.errors.empty()) {
    build.rules.clear();
  }
  return build;
}

} // namespace s3fault::faults::config
