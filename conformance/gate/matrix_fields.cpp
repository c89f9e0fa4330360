#include "conformance/gate/matrix_fields.hpp"

#include "faults/action_registry.hpp"
#include "faults/config/nearest_known.hpp"
#include "faults/config/rule_file.hpp"
#include "faults/values.hpp"

#include <algorithm>

namespace s3fault::gate {
namespace {

using nlohmann::json;

bool is_matrix_name(std::string_view name) {
  static constexpr std::string_view extra = "._+-";
  return !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
           extra.find(c) != std::string_view::npos;
  });
}

std::string item_label(const json& fields, std::string_view kind, std::size_t number) {
  std::string label = std::string(kind) + " " + std::to_string(number);
  if (!fields.is_object() || !fields.contains("name")) {
    return label;
  }
  const json& name = fields["name"];
  if (name.is_string()) {
    label += " (" + faults::shortened(name.get<std::string>()) + ")";
  } else if (name.is_number_unsigned()) {
    label += " (" + name.dump() + ")";
  }
  return label;
}

} // namespace

item_fields::item_fields(const matrix_item& item, const std::string& file, std::string_view kind,
                         std::size_t number, std::vector<std::string>& errors)
    : item_(item), file_(file), label_(item_label(item.fields, kind, number)), errors_(errors) {}

std::string item_fields::place(const std::string& field) const {
  return file_ + ":" + std::to_string(item_.line_of(field)) + ": " + label_;
}

std::string item_fields::origin() const {
  return file_ + ":" + std::to_string(item_.line);
}

std::map<std::string, std::size_t> item_fields::lines_under(const std::string& field) const {
  return faults::config::field_lines_under(item_.field_lines, field);
}

bool item_fields::has(const std::string& field) const {
  return is_mapping() && item_.fields.contains(field);
}

const json& item_fields::get(const std::string& field) const {
  return item_.fields.at(field);
}

void item_fields::fail(const std::string& field, const std::string& message) {
  errors_.push_back(place(field) + ": " + (field.empty() ? "" : field + ": ") + message);
}

void item_fields::must_be(const std::string& field, std::string_view what, const json& got) {
  fail(field, "must be " + std::string(what) + " (got " + faults::describe_got(got) + ")");
}

void item_fields::check_known(const std::vector<std::string_view>& allowed) {
  for (const auto& [key, value] : item_.fields.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      fail(key, "unknown field " + faults::config::nearest_and_known(key, allowed, "allowed"));
    }
  }
}

std::optional<std::string> item_fields::name() {
  constexpr std::string_view what = "letters, digits, '.', '_', '+' or '-'";
  if (!has("name")) {
    fail("name", "missing (a name of " + std::string(what) + ")");
    return std::nullopt;
  }
  const json& value = get("name");
  // A name like 1024 is read by YAML as a number; it is still a fine name.
  const std::string written = value.is_number_unsigned() ? value.dump()
                              : value.is_string()        ? value.get<std::string>()
                                                         : "";
  if (!is_matrix_name(written)) {
    must_be("name", what, value);
    return std::nullopt;
  }
  return written;
}

std::optional<std::string> item_fields::description() {
  auto written = text("description", "a one-line description", true);
  if (written && (written->empty() || written->find('\n') != std::string::npos)) {
    must_be("description", "one line of text", *written);
    return std::nullopt;
  }
  return written;
}

std::optional<std::string> item_fields::text(const std::string& field, std::string_view what,
                                             bool required) {
  if (!has(field)) {
    if (required) {
      fail(field, "missing (" + std::string(what) + ")");
    }
    return std::nullopt;
  }
  const json& value = get(field);
  if (value.is_string()) {
    return value.get<std::string>();
  }
  if (value.is_number()) {
    return value.dump(-1, ' ', false, json::error_handler_t::replace);
  }
  must_be(field, what, value);
  return std::nullopt;
}

std::optional<bool> item_fields::flag(const std::string& field) {
  if (!has(field)) {
    return std::nullopt;
  }
  const json& value = get(field);
  if (value.is_boolean()) {
    return value.get<bool>();
  }
  if (value == "true" || value == "false") {
    return value == "true";
  }
  must_be(field, "true or false", value);
  return std::nullopt;
}

std::optional<std::string> item_fields::choice(const std::string& field,
                                               const std::vector<std::string_view>& choices) {
  if (!has(field)) {
    return std::nullopt;
  }
  const json& value = get(field);
  if (value.is_string() &&
      std::find(choices.begin(), choices.end(), value.get<std::string>()) != choices.end()) {
    return value.get<std::string>();
  }
  const std::string near =
      value.is_string() ? faults::config::nearest_clause(value.get<std::string>(), choices) : "";
  fail(field, "must be one of " + faults::join_names(choices) + " (got " +
                  faults::describe_got(value) + (near.empty() ? "" : "; " + near) + ")");
  return std::nullopt;
}

} // namespace s3fault::gate
