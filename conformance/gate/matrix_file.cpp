#include "conformance/gate/matrix_file.hpp"

#include "faults/config/nearest_known.hpp"
#include "faults/config/rule_file.hpp"
#include "faults/values.hpp"

namespace s3fault::gate {
namespace {

using faults::config::field_line_map;
using nlohmann::json;

/// One list entry with the lines of everything in it ("rules[2].match.operations").
matrix_item marked_item(const json& fields, const field_line_map& lines, const std::string& path) {
  matrix_item item{fields, 0, faults::config::field_lines_under(lines, path)};
  const auto own = item.field_lines.find("");
  item.line = own == item.field_lines.end() ? 0 : own->second;
  return item;
}

/// One top-level list; `scenarios:` with nothing after it is an empty list.
std::vector<matrix_item> read_item_list(const json& list, const field_line_map& lines,
                                        const std::string& key, const std::string& where,
                                        std::vector<std::string>& errors) {
  std::vector<matrix_item> items;
  if (list.is_null()) {
    return items;
  }
  if (!list.is_array()) {
    errors.push_back(faults::must_be(where, "a list", list));
    return items;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    items.push_back(marked_item(list[i], lines, key + "[" + std::to_string(i + 1) + "]"));
  }
  return items;
}

} // namespace

std::size_t matrix_item::line_of(const std::string& field) const {
  const auto found = field_lines.find(field);
  return found == field_lines.end() || found->second == 0 ? line : found->second;
}

matrix_items read_matrix_items(std::string_view text, const std::string& name,
                               std::vector<std::string>& errors) {
  // yaml_to_json refuses the bytes yaml-cpp cannot be trusted with and types scalars the way
  // rules files do; once it has accepted the text, reading it again only adds the lines.
  std::string syntax_error;
  const auto document = faults::config::yaml_to_json(text, syntax_error);
  if (!document) {
    errors.push_back(name + ":" + syntax_error);
    return {};
  }
  if (document->is_null()) {
    errors.push_back(name + ": empty (expected \"scenarios:\" and/or \"shapes:\")");
    return {};
  }
  if (!document->is_object()) {
    errors.push_back(
        faults::must_be(name + ":1", "a mapping with \"scenarios\" and/or \"shapes\"", *document));
    return {};
  }
  const field_line_map lines = faults::config::yaml_field_lines(text);
  matrix_items items;
  for (const auto& [key, value] : document->items()) {
    const auto line = lines.find(key);
    const std::string where =
        name + ":" + std::to_string(line == lines.end() ? 0 : line->second) + ": " + key;
    if (key == "scenarios") {
      items.scenarios = read_item_list(value, lines, key, where, errors);
    } else if (key == "shapes") {
      items.shapes = read_item_list(value, lines, key, where, errors);
    } else {
      errors.push_back(where + ": unknown key " +
                       faults::config::nearest_and_known(key, {"scenarios", "shapes"}, "allowed"));
    }
  }
  return items;
}

} // namespace s3fault::gate
