#pragma once
// Reading the fields of one scenario or shape of a matrix file, with messages worded the way the
// proxy words a rules file's (faults/config/rule_parser.cpp):
//
//   mine.yaml:14: scenario 3 (truncate-ranges): expect: must be one of must-recover,
//       must-not-corrupt, informational (got "maybe")
//
// LINE is the line of the field concerned, or of the entry when the field is missing. Every
// mistake is recorded; a reader goes on after one, so that a file's mistakes are all listed.
#include "conformance/gate/matrix_file.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::gate {

class item_fields {
public:
  /// `kind` is "scenario" or "shape"; `number` the 1-based place in its list.
  item_fields(const matrix_item& item, const std::string& file, std::string_view kind,
              std::size_t number, std::vector<std::string>& errors);

  /// "FILE:LINE: KIND N (NAME)" with the line of `field`; the name as given, when it is text.
  std::string place(const std::string& field) const;
  /// "FILE:LINE" of the entry, for `origin` fields.
  std::string origin() const;
  /// What names the entry after its line: "scenario 3 (truncate-ranges)".
  const std::string& label() const { return label_; }
  const std::string& file() const { return file_; }
  /// The lines of everything under `field` ("rules[2]"), relative to it.
  std::map<std::string, std::size_t> lines_under(const std::string& field) const;
  bool is_mapping() const { return item_.fields.is_object(); }
  bool has(const std::string& field) const;
  /// The value of a field that `has` found.
  const nlohmann::json& get(const std::string& field) const;

  /// "PLACE: FIELD: MESSAGE" (or "PLACE: MESSAGE" for an empty field).
  void fail(const std::string& field, const std::string& message);
  /// "PLACE: FIELD: must be WHAT (got VALUE)".
  void must_be(const std::string& field, std::string_view what, const nlohmann::json& got);
  /// A message that already names its place (parse_rules' messages).
  void add_error(const std::string& message) { errors_.push_back(message); }

  /// Every field must be one of `allowed`; each other one is a mistake listing them.
  void check_known(const std::vector<std::string_view>& allowed);
  /// The name: required, of letters, digits and . _ + - only.
  std::optional<std::string> name();
  /// The description: required, one line (it heads a row of the tables).
  std::optional<std::string> description();
  /// A text field (a number written there counts as its text). Missing: nullopt, and a mistake
  /// when `required`; `what` says what belongs there, for messages.
  std::optional<std::string> text(const std::string& field, std::string_view what,
                                  bool required = false);
  /// true or false (also written as "true" or "false"); nullopt when missing or wrong.
  std::optional<bool> flag(const std::string& field);
  /// One of `choices`; nullopt when missing or wrong (the nearest choices named).
  std::optional<std::string> choice(const std::string& field,
                                    const std::vector<std::string_view>& choices);

private:
  const matrix_item& item_;
  std::string file_;
  std::string label_; // "scenario 3 (truncate-ranges)"
  std::vector<std::string>& errors_;
};

} // namespace s3fault::gate
