#pragma once
// The first step of reading a matrix file: YAML text -> the items of its `scenarios` and `shapes`
// lists, each with the line of every field, still to be checked (matrix_scenario.cpp,
// matrix_shape.cpp).
//
//   text ──faults::config::yaml_to_json─────> JSON, scalars typed as rules files type them
//        ──faults::config::yaml_field_lines──> the line of every field and list entry
//        ──> matrix_item per list entry
#include <nlohmann/json.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::gate {

/// One entry of `scenarios` or `shapes`, as written.
struct matrix_item {
  nlohmann::json fields; // an object of fields, or whatever else the entry was
  std::size_t line = 0;  // 1-based
  /// The 1-based line of each field ("rules"), of each entry of a list field ("rules[2]", 1-based
  /// like the messages that name it), and of everything within them ("rules[2].match.operations");
  /// "" is the entry's own.
  std::map<std::string, std::size_t> field_lines;

  /// The line of `field`, or of the item when the field has none (it is missing).
  std::size_t line_of(const std::string& field) const;
};

/// A matrix file split into its two lists.
struct matrix_items {
  std::vector<matrix_item> scenarios;
  std::vector<matrix_item> shapes;
};

/// Reads the YAML and its top level (only `scenarios` and `shapes`, each a list). Mistakes are
/// appended to `errors` as "NAME:LINE: ..." (a syntax error as "NAME:LINE:COLUMN: ...").
matrix_items read_matrix_items(std::string_view text, const std::string& name,
                               std::vector<std::string>& errors);

} // namespace s3fault::gate
