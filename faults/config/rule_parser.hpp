#pragma once
// Rule definitions (JSON) -> validated `faults::rule` values (docs/design.md rule 3: parse, then
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
#include <map>
#include <optional>
#include <string>
#include <utility>
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
  /// Set for an entry read from a YAML file: the file's name, and the 1-based line of each field
  /// of the entry by the path messages give it ("" for the entry itself, "match.operations",
  /// "actions[2]", "actions[2].mode"). Every message then starts "FILE:LINE" with the line of the
  /// field it names, followed by `label` (what names the entry after its line, "scenario 1 (s):
  /// rules[2]"; may be empty), instead of `origin`:
  ///   rules.yaml:14: rule 3 (cut): truncate.mode: must be one of ...
  std::string file;
  std::string label;
  std::map<std::string, std::size_t> field_lines;
};

/// The outcome of validating a rule set. The rules are usable only when `errors` is empty; they
/// are in the order of the entries.
struct rule_build {
  std::vector<rule> rules;
  std::optional<std::uint64_t> seed; // from a document's "seed", when one gave it
  error_list errors;
  /// The names of the rules each --profile gave, by profile as named (build_rules.hpp).
  std::vector<std::pair<std::string, std::vector<std::string>>> profile_rules;

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

/// Where each field of one rule is written: path -> 1-based line, "" for the rule itself
/// (rule_entry::field_lines).
using field_line_map = std::map<std::string, std::size_t>;

/// The lines of what lies under `path` ("rules[2]"), with the paths relative to it: "" for the
/// field itself, "match.operations", "[1]" for entries of a list.
field_line_map field_lines_under(const field_line_map& lines, const std::string& path);

/// Splits a rules document into entries; document-level mistakes (not an object, unknown keys,
/// a bad seed) are appended to `errors` prefixed with `origin`. `lines`, when given, holds the
/// line of every field of the document in the source file `origin` (rule_file.hpp's
/// yaml_field_lines), so every message names "origin:LINE" with the line of its field.
rule_document read_rule_document(const nlohmann::json& document, const std::string& origin,
                                 error_list& errors, const field_line_map& lines = {});

/// read_rule_document + parse_rules: the admin API's JSON body, or a file already read.
rule_build parse_rule_document(const nlohmann::json& document, const std::string& origin = {});

/// Whether `name` is the kind of name the parser gives an unnamed rule whose first action is
/// `action_type`: `TYPE-N`, N its position (a one-line form written back leaves it out).
bool is_default_rule_name(std::string_view name, std::string_view action_type);

/// Turns an action given as a list entry ({"type": T, ...}, {T: VALUE, ...} or a one-line
/// string "T VALUE key=value") into {"type": T, params...}; messages go to `errors` without a
/// prefix. nullopt when the entry cannot be read.
std::optional<nlohmann::json> normalize_action_entry(const nlohmann::json& entry,
                                                     error_list& errors);

} // namespace s3fault::faults::config
