#include "conformance/gate/matrix_file.hpp"

#include "faults/config/rule_file.hpp"
#include "faults/values.hpp"

#include <yaml-cpp/yaml.h>

namespace s3fault::gate {
namespace {

using nlohmann::json;

std::size_t line_of_mark(const YAML::Node& node) {
  return node.Mark().is_null() ? 0 : static_cast<std::size_t>(node.Mark().line) + 1;
}

/// The value of `key` in a YAML map, and the line of the key.
struct yaml_field {
  YAML::Node value;
  std::size_t line = 0;
};

std::map<std::string, yaml_field> yaml_fields(const YAML::Node& map) {
  std::map<std::string, yaml_field> fields;
  if (map.IsMap()) {
    for (const auto& item : map) {
      fields[item.first.Scalar()] = {item.second, line_of_mark(item.first)};
    }
  }
  return fields;
}

/// Pairs one list entry with its marks: the entry's line, each field's, each list entry's.
matrix_item marked_item(const json& fields, const YAML::Node& node) {
  matrix_item item{fields, line_of_mark(node), {}};
  for (const auto& [key, field] : yaml_fields(node)) {
    item.field_lines[key] = field.line;
    if (!field.value.IsSequence()) {
      continue;
    }
    for (std::size_t i = 0; i < field.value.size(); ++i) {
      item.field_lines[key + "[" + std::to_string(i + 1) + "]"] = line_of_mark(field.value[i]);
    }
  }
  return item;
}

/// One top-level list; `scenarios:` with nothing after it is an empty list.
std::vector<matrix_item> read_item_list(const json& list, const yaml_field& marks,
                                        const std::string& where,
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
    items.push_back(marked_item(list[i], marks.value[i]));
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
  // rules files do; once it has accepted the text, loading it again only adds the marks.
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
  const auto marks = yaml_fields(YAML::Load(std::string(text)));
  matrix_items items;
  for (const auto& [key, value] : document->items()) {
    const yaml_field& field = marks.at(key);
    const std::string where = name + ":" + std::to_string(field.line) + ": " + key;
    if (key == "scenarios") {
      items.scenarios = read_item_list(value, field, where, errors);
    } else if (key == "shapes") {
      items.shapes = read_item_list(value, field, where, errors);
    } else {
      errors.push_back(where + ": unknown key (allowed: scenarios, shapes)");
    }
  }
  return items;
}

} // namespace s3fault::gate
