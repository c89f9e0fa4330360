#pragma once
// Rules files (`--faults FILE`): YAML or JSON holding {"seed": N, "rules": [...]}.
//
//   file ──read──> text ──yaml-cpp / nlohmann──> JSON (+ the line of each rule)
//        ──read_rule_document──> rule_entry per rule, named "FILE:LINE: rule N (NAME)", and
//                                 every message by the line of its field (yaml_field_lines)
//
// YAML scalars are typed the way YAML's core schema reads them (see scalar_text.hpp); quoted
// scalars always stay strings. yaml-cpp stays inside rule_file.cpp.
#include "faults/config/rule_parser.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace s3fault::faults::config {

enum class rule_file_format {
  detect, // by extension (.json, .yaml, .yml), else by content ('{' or '[' first: JSON)
  yaml,
  json,
};

/// Reads and splits a rules file. Problems are appended to `errors` as "FILE:LINE: ..." where
/// the parser gives a line, "FILE: ..." otherwise; the entries are then still to be validated.
rule_document load_rule_file(const std::string& path, error_list& errors,
                             rule_file_format format = rule_file_format::detect);

/// The same for text already in memory; `name` stands for the file in messages (and its
/// extension is what `detect` looks at first).
rule_document read_rule_text(std::string_view text, const std::string& name, error_list& errors,
                             rule_file_format format = rule_file_format::detect);

/// The 1-based line of every field of a YAML text, by its path: "" for the document,
/// "rules[1]" (list entries 1-based, as messages count them), "rules[1].match.operations" (a
/// field by the line of its key). Empty when the text is not YAML; call it on text yaml_to_json
/// accepted.
field_line_map yaml_field_lines(std::string_view text);

/// A YAML text as JSON. On a syntax error: nullopt and `error` = "LINE:COLUMN: message". Map keys
/// given twice are errors too.
std::optional<nlohmann::json> yaml_to_json(std::string_view text, std::string& error);

} // namespace s3fault::faults::config
