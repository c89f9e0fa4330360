#include "faults/config/rule_file.hpp"

#include "faults/config/scalar_text.hpp"
#include "text/utf8.hpp"

#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

namespace s3fault::faults::config {
namespace {

using nlohmann::json;

std::string position(const YAML::Mark& mark) {
  return std::to_string(mark.line + 1) + ":" + std::to_string(mark.column + 1);
}

/// "LINE:COLUMN:" of a yaml-cpp exception, or nothing when it has no position.
std::string where(const YAML::Exception& e) {
  return e.mark.is_null() ? std::string() : position(e.mark) + ":";
}

/// yaml-cpp's message, with a hint for the usual cause of an undefined alias: a plain glob.
std::string yaml_message(const YAML::Exception& e) {
  if (e.msg.find("anchor is not defined") != std::string::npos) {
    return e.msg + " (a value that starts with * must be quoted, like \"*.parquet\")";
  }
  return e.msg;
}

/// Converts a YAML node; the first problem found is reported through `error`.
json node_to_json(const YAML::Node& node, std::string& error) {
  switch (node.Type()) {
  case YAML::NodeType::Undefined:
  case YAML::NodeType::Null:
    return nullptr;
  case YAML::NodeType::Scalar:
    // "?" is a plain scalar with no tag: type it. Quoted scalars ("!") and explicit tags other
    // than the core number/bool ones stay text.
    if (node.Tag() == "?" || node.Tag() == "tag:yaml.org,2002:int" ||
        node.Tag() == "tag:yaml.org,2002:float" || node.Tag() == "tag:yaml.org,2002:bool") {
      return scalar_from_text(node.Scalar());
    }
    return node.Scalar();
  case YAML::NodeType::Sequence: {
    json array = json::array();
    for (const auto& item : node) {
      array.push_back(node_to_json(item, error));
    }
    return array;
  }
  case YAML::NodeType::Map: {
    json object = json::object();
    for (const auto& item : node) {
      if (!item.first.IsScalar()) {
        if (error.empty()) {
          error = position(item.first.Mark()) + ": a key must be plain text";
        }
        continue;
      }
      const std::string key = item.first.Scalar();
      if (object.contains(key)) {
        if (error.empty()) {
          error = position(item.first.Mark()) + ": key '" + key + "' given twice";
        }
        continue;
      }
      object[key] = node_to_json(item.second, error);
    }
    return object;
  }
  }
  return nullptr;
}

std::size_t line_of(const YAML::Mark& mark) {
  return mark.is_null() ? 0 : static_cast<std::size_t>(mark.line) + 1;
}

/// Adds the line of `node` under `path`, and of everything in it: a map's fields by their keys'
/// lines ("match.operations"), a list's entries 1-based ("actions[2]").
void add_field_lines(const YAML::Node& node, const std::string& path, field_line_map& lines) {
  if (node.IsMap()) {
    for (const auto& item : node) {
      if (!item.first.IsScalar()) {
        continue;
      }
      const std::string field =
          path.empty() ? item.first.Scalar() : path + "." + item.first.Scalar();
      lines.emplace(field, line_of(item.first.Mark()));
      add_field_lines(item.second, field, lines);
    }
  } else if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      const std::string entry = path + "[" + std::to_string(i + 1) + "]";
      lines.emplace(entry, line_of(node[i].Mark()));
      add_field_lines(node[i], entry, lines);
    }
  }
}

field_line_map document_field_lines(const YAML::Node& root) {
  field_line_map lines{{"", line_of(root.Mark())}};
  add_field_lines(root, "", lines);
  return lines;
}

bool ends_with(std::string_view text, std::string_view suffix) {
  return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

rule_file_format detect_format(std::string_view text, const std::string& name) {
  if (ends_with(name, ".json")) {
    return rule_file_format::json;
  }
  if (ends_with(name, ".yaml") || ends_with(name, ".yml")) {
    return rule_file_format::yaml;
  }
  const auto first = text.find_first_not_of(" \t\r\n");
  const bool json_like =
      first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
  return json_like ? rule_file_format::json : rule_file_format::yaml;
}

/// Where `text` holds a byte YAML does not allow: a control character other than tab, line feed
/// and carriage return, or bytes that are not UTF-8. yaml-cpp 0.7 can loop without end on such
/// input (found by fuzz_rule_file), so it never sees it. Empty when the text is clean; else
/// "LINE:COLUMN: ..." (1-based).
std::string unreadable_yaml_character(std::string_view text) {
  std::size_t line = 1;
  std::size_t column = 1;
  for (std::size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    const auto character = text::read_utf8(text, i);
    const bool ok =
        character && (character->code >= 0x20 ? character->code != 0x7F
                                              : (byte == '\t' || byte == '\n' || byte == '\r'));
    if (!ok) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned>(byte));
      return std::to_string(line) + ":" + std::to_string(column) + ": byte " + hex +
             " is not allowed in YAML (control characters and bytes that are not UTF-8 are "
             "refused)";
    }
    if (byte == '\n') {
      ++line;
      column = 1;
    } else {
      ++column;
    }
    i += character->length;
  }
  return {};
}

/// How many YAML documents `text` holds, counted by its "---" and "..." markers. yaml-cpp's
/// LoadAll loops without end on a document that starts with ',' (found by fuzz_rule_file), so
/// documents are counted here and only YAML::Load, which reads one, is called.
std::size_t yaml_document_count(std::string_view text) {
  std::size_t documents = 0;
  bool in_document = false; // content or a "---" since the last "..."
  while (!text.empty()) {
    const auto end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text = end == std::string_view::npos ? std::string_view() : text.substr(end + 1);
    if (!line.empty() && line.back() == '\r') {
      line.remove_suffix(1);
    }
    const auto marker = [&](std::string_view m) {
      return line.starts_with(m) && (line.size() == 3 || line[3] == ' ' || line[3] == '\t');
    };
    if (marker("---")) {
      ++documents;
      in_document = true;
    } else if (marker("...")) {
      in_document = false;
    } else {
      const auto first = line.find_first_not_of(" \t");
      const bool content =
          first != std::string_view::npos && line[first] != '#' && !line.starts_with('%');
      if (content && !in_document) {
        ++documents;
        in_document = true;
      }
    }
  }
  return documents;
}

rule_document read_yaml(std::string_view text, const std::string& name, error_list& errors) {
  if (const auto bad = unreadable_yaml_character(text); !bad.empty()) {
    errors.push_back(name + ":" + bad);
    return {};
  }
  if (const auto count = yaml_document_count(text); count > 1) {
    errors.push_back(name + ": holds " + std::to_string(count) +
                     " YAML documents; put every rule in one \"rules\" list");
    return {};
  }
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    errors.push_back(name + ":" + where(e) + " " + yaml_message(e));
    return {};
  }
  if (!root.IsDefined() || root.IsNull()) {
    errors.push_back(name + ": empty (expected \"rules:\" with a list of rules)");
    return {};
  }
  std::string error;
  const json document = node_to_json(root, error);
  if (!error.empty()) {
    errors.push_back(name + ":" + error);
    return {};
  }
  return read_rule_document(document, name, errors, document_field_lines(root));
}

rule_document read_json(std::string_view text, const std::string& name, error_list& errors) {
  json document;
  try {
    document = json::parse(text);
  } catch (const json::parse_error& e) {
    // Line and column from the byte offset; the message without nlohmann's prefixes.
    std::size_t line = 1;
    std::size_t column = 1;
    for (std::size_t i = 0; i + 1 < e.byte && i < text.size(); ++i) {
      column = text[i] == '\n' ? 1 : column + 1;
      line += text[i] == '\n' ? 1 : 0;
    }
    std::string message = e.what();
    const auto detail = message.find(": ", message.find("parse error"));
    if (detail != std::string::npos) {
      message = message.substr(detail + 2);
    }
    errors.push_back(name + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " +
                     message);
    return {};
  } catch (const json::exception& e) {
    // A number too large for a double (found by fuzz_rule_file: out_of_range.406).
    std::string message = e.what();
    const auto detail = message.find("] ");
    errors.push_back(name + ": " +
                     (detail == std::string::npos ? message : message.substr(detail + 2)));
    return {};
  }
  return read_rule_document(document, name, errors);
}

} // namespace

std::optional<json> yaml_to_json(std::string_view text, std::string& error) {
  error = unreadable_yaml_character(text);
  if (!error.empty()) {
    return std::nullopt;
  }
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    json document = node_to_json(root, error);
    if (!error.empty()) {
      return std::nullopt;
    }
    return document;
  } catch (const YAML::Exception& e) {
    error = where(e) + " " + yaml_message(e);
    error.erase(0, error.front() == ' ' ? 1 : 0);
    return std::nullopt;
  }
}

field_line_map yaml_field_lines(std::string_view text) {
  // Only for text yaml_to_json accepted, which is the text yaml-cpp can be trusted with.
  try {
    return document_field_lines(YAML::Load(std::string(text)));
  } catch (const YAML::Exception&) {
    return {};
  }
}

rule_document read_rule_text(std::string_view text, const std::string& name, error_list& errors,
                             rule_file_format format) {
  if (format == rule_file_format::detect) {
    format = detect_format(text, name);
  }
  return format == rule_file_format::json ? read_json(text, name, errors)
                                          : read_yaml(text, name, errors);
}

rule_document load_rule_file(const std::string& path, error_list& errors, rule_file_format format) {
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    errors.push_back(path + ": cannot read (" + std::strerror(errno) + ")");
    return {};
  }
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) {
    errors.push_back(path + ": cannot read (" + std::strerror(errno) + ")");
    return {};
  }
  return read_rule_text(text.str(), path, errors, format);
}

} // namespace s3fault::faults::config
