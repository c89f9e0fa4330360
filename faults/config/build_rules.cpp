#include "faults/config/build_rules.hpp"

#include "faults/config/fault_spec.hpp"
#include "faults/config/presets.hpp"
#include "faults/config/profiles.hpp"
#include "faults/config/rule_file.hpp"

namespace s3fault::faults::config {

rule_build build_rules(const std::vector<std::string>& fault_specs,
                       const std::vector<std::string>& rule_files,
                       const std::vector<std::string>& presets,
                       std::optional<std::uint64_t> seed_override) {
  return build_rules(rule_sources{fault_specs, rule_files, presets, {}, seed_override});
}

rule_build build_rules(const rule_sources& sources) {
  // Plain references, not a structured binding: clang 14 cannot capture those in lambdas.
  const auto& fault_specs = sources.fault_specs;
  const auto& rule_files = sources.rule_files;
  const auto& presets = sources.presets;
  const auto& seed_override = sources.seed;
  error_list errors; // mistakes in the sources themselves, before any rule is looked at
  std::vector<rule_entry> entries;
  std::optional<std::uint64_t> seed;
  std::string seed_origin;
  // A document's seed: the first one counts, and another that differs is an error (unless
  // --seed overrides them all).
  auto take_seed = [&](const rule_document& document, const std::string& origin) {
    if (!document.seed || seed_override) {
      return;
    }
    if (seed && *seed != *document.seed) {
      errors.push_back(origin + ": seed: " + std::to_string(*document.seed) +
                       " differs from the seed " + std::to_string(*seed) + " of " + seed_origin +
                       " (a rule set has one seed: give --seed N to choose it)");
    } else if (!seed) {
      seed = document.seed;
      seed_origin = origin;
    }
  };

  // How many rules each profile gave: theirs are the first rules of the set, in this order.
  std::vector<std::pair<std::string, std::size_t>> profile_sizes;
  for (const auto& name : sources.profiles) {
    if (auto profile = load_profile(name, errors)) {
      take_seed(profile->rules, name);
      profile_sizes.emplace_back(name, profile->rules.entries.size());
      for (auto& entry : profile->rules.entries) {
        entries.push_back(std::move(entry));
      }
    }
  }

  for (std::size_t i = 0; i < presets.size(); ++i) {
    const std::string origin = preset_origin(presets[i], i + 1);
    error_list preset_errors;
    const auto rules = expand_preset(presets[i], preset_errors);
    for (const auto& message : preset_errors) {
      errors.push_back(origin + ": " + message);
    }
    if (rules) {
      for (std::size_t r = 0; r < rules->size(); ++r) {
        rule_entry entry;
        entry.definition = (*rules)[r];
        entry.origin = origin;
        entry.number = r + 1;
        entries.push_back(std::move(entry));
      }
    }
  }

  for (const auto& path : rule_files) {
    rule_document document = load_rule_file(path, errors);
    take_seed(document, path);
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
      rule_entry entry;
      entry.definition = std::move(*rule);
      entry.origin = origin;
      entries.push_back(std::move(entry));
    }
  }

  rule_build build = parse_rules(entries);
  errors.insert(errors.end(), build.errors.begin(), build.errors.end());
  build.errors = std::move(errors);
  build.seed = seed_override ? seed_override : seed;
  if (!build.errors.empty()) {
    build.rules.clear();
    return build;
  }
  auto next = build.rules.begin();
  for (const auto& [name, size] : profile_sizes) {
    auto& names = build.profile_rules.emplace_back(name, std::vector<std::string>{}).second;
    for (std::size_t i = 0; i < size; ++i, ++next) {
      names.push_back(next->name);
    }
  }
  return build;
}

} // namespace s3fault::faults::config
