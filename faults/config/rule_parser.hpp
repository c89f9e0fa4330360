#pragma once
// Rule definitions (JSON) -> validated `faults::rule` values (STYLE.md point 3: parse, then
// validate into plain structs).
//
//   --fault SPEC ──fault_spec──┐
//   rules file ───rule_file────┼──> rule_entry (JSON + origin) ──parse_rules──> rule_build
//   --preset NAME ──presets────┘                                  (rules or the full error list)
//
// Every entry and every field is checked before anything is returned, so one run reports every
// mistake. Each message names the entry and the field:
//   rules.yaml:12: rule 3 (strip-parts-count): truncate.at_bytes: must be >= 0
#include "faults/action_registry.hpp"
#include "faults/rule.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace s3fault::faults::config {

/// One rule definition waiting to be validated, with what names it in error messages.
struct rule_entry {
  nlohmann::json definition;
  /// The source, in front of every message: "rules.yaml:12", "--fault 2 ('delay 1s')". Empty for
  /// a document given directly (the admin API's body).
  std::string origin;
  /// 1-based place within its source, shown as "rule N (NAME)"; 0 when `origin` alone names the
  /// entry (a `--fault` spec is one rule).
  std::size_t number = 0;
};

/// The outcome of validating a rule set. The rules are usable only when `errors` is empty; they
/// are in the order of the entries.
struct rule_build {
  std::vector<rule> rules;
  std::optional<std::uint64_t> seed; // from a document's "seed", when one gave it
  error_list errors;

  bool ok() const { return errors.empty(); }
};

/// A rules document ({"seed": N, "rules": [...]}, or just the list) split into its entries.
struct rule_document {
  std::optional<std::uint64_t> seed;
  /// A profile's description (faults/config/profiles.hpp), as written; checked there.
  std::optional<nlohmann::json> profile;
  std::vector<rule_entry> entries;
};

/// Validates `entries` as one rule set. Names default to "<first action type>-<position in the
/// set>" and must be unique across the set. Never throws on bad input.
rule_build parse_rules(const std::vector<rule_entry>& entries);

/// Splits a rules document into entries; document-level mistakes (not an object, unknown keys,
/// a bad seed) are appended to `errors` prefixed with `origin`. `rule_lines`, when given, holds
/// the line of each rule in the source file, so entries are named "origin:LINE".
rule_document read_rule_document(const nlohmann::json& document, const std::string& origin,
                                 error_list& errors,
                                 const std::vector<std::size_t>& rule_lines = {});

/// read_rule_document + parse_rules: the admin API's JSON body, or a file already read.
rule_build parse_rule_document(const nlohmann::json& document, const std::string& origin = {});

/// Turns an action given as a list entry ({"type": T, ...}, {T: VALUE, ...} or a one-line
/// string "T VALUE key=value") into {"type": T, params...}; messages go to `errors` without a
/// prefix. nullopt when the entry cannot be read.
std::optional<nlohmann::json> normalize_action_entry(const nlohmann::json& entry,
                                                     error_list& errors);

} // namespace s3fault::faults::config
