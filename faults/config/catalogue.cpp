#include "faults/config/catalogue.hpp"

#include "faults/action_registry.hpp"
#include "faults/config/presets.hpp"
#include "faults/operations/catalogue.hpp"

#include <algorithm>
#include <string_view>
#include <vector>

namespace s3fault::faults::config {
namespace {

/// `text` broken into lines of at most `width` characters at spaces (a longer word stands alone).
std::vector<std::string> wrap(std::string_view text, std::size_t width) {
  std::vector<std::string> lines(1);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string_view::npos) {
      end = text.size();
    }
    const std::string_view word = text.substr(start, end - start);
    if (!lines.back().empty() && lines.back().size() + 1 + word.size() > width) {
      lines.emplace_back();
    }
    lines.back() += (lines.back().empty() ? "" : " ") + std::string(word);
    start = end + 1;
  }
  return lines;
}

/// Rows of two columns: the first padded to its widest entry, the second's paragraphs each
/// wrapped beside it.
std::string columns(const std::vector<std::pair<std::string, std::vector<std::string>>>& rows,
                    std::size_t width) {
  std::size_t first = 0;
  for (const auto& [left, paragraphs] : rows) {
    first = std::max(first, left.size());
  }
  const std::size_t indent = 2 + first + 2;
  const std::size_t room = width > indent + 20 ? width - indent : 20;
  std::string out;
  for (const auto& [left, paragraphs] : rows) {
    std::string margin = "  " + left + std::string(first - left.size() + 2, ' ');
    for (const auto& paragraph : paragraphs) {
      for (const auto& line : wrap(paragraph, room)) {
        out += margin + line + "\n";
        margin = std::string(indent, ' ');
      }
    }
  }
  return out;
}

/// Positional parameters bare, the others as NAME=.
std::string parameter_list(const action_kind& kind) {
  std::string list;
  for (const auto name : kind.parameters) {
    const bool positional =
        std::find(kind.positional.begin(), kind.positional.end(), name) != kind.positional.end();
    list += (list.empty() ? "" : " ") + std::string(name) + (positional ? "" : "=");
  }
  return list;
}

std::string code(std::string_view text) {
  return text.empty() ? "—" : "`" + std::string(text) + "`";
}

} // namespace

std::string actions_text(std::size_t width) {
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  for (const auto& kind : action_kinds()) {
    const std::string params = parameter_list(kind);
    std::vector<std::string> paragraphs;
    if (!params.empty()) {
      paragraphs.push_back(params);
    }
    paragraphs.push_back(std::string(kind.summary));
    paragraphs.push_back("e.g. " + std::string(kind.example));
    rows.emplace_back(std::string(kind.type), std::move(paragraphs));
  }
  return columns(rows, width);
}

std::string presets_text(std::size_t width) {
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  for (const auto& preset : presets()) {
    rows.emplace_back(std::string(preset.name),
                      std::vector<std::string>{std::string(preset.description)});
  }
  return columns(rows, width);
}

std::string actions_markdown() {
  std::string out = "| type | phase | positional | parameters | what it does | example |\n"
                    "|---|---|---|---|---|---|\n";
  for (const auto& kind : action_kinds()) {
    std::string positional;
    for (const auto name : kind.positional) {
      positional += (positional.empty() ? "" : " ") + std::string(name);
    }
    std::string parameters;
    for (const auto name : kind.parameters) {
      parameters += (parameters.empty() ? "" : ", ") + std::string(name);
    }
    out += "| `" + std::string(kind.type) + "` | " + std::string(phase_name(kind.phase)) + " | " +
           code(positional) + " | " + (parameters.empty() ? "—" : parameters) + " | " +
           std::string(kind.summary) + " | " + code(kind.example) + " |\n";
  }
  return out;
}

namespace {

std::string body_note(object_body body) {
  switch (body) {
  case object_body::read:
    return "answers with an object's bytes";
  case object_body::write:
    return "sends an object's bytes";
  default:
    return "";
  }
}

std::string alias_note(const operation_shape& shape) {
  return shape.alias ? "deprecated alias of " + std::string(operation_name(shape.operation)) : "";
}

} // namespace

std::string operations_text(std::size_t width) {
  std::vector<std::pair<std::string, std::vector<std::string>>> rows;
  for (const auto& shape : catalogue()) {
    const std::string note = shape.alias ? alias_note(shape) : body_note(shape.body);
    rows.push_back(
        {std::string(shape.name), {request_form(shape) + (note.empty() ? "" : " (" + note + ")")}});
  }
  std::vector<std::pair<std::string, std::vector<std::string>>> sets;
  for (const auto& [name, holds] : operation_sets()) {
    std::string members;
    const auto operations = operation_set(name).value();
    for (const auto operation : operations) {
      members += (members.empty() ? "" : ", ") + std::string(operation_name(operation));
    }
    sets.push_back({std::string(name), {std::string(holds) + ": " + members}});
  }
  return "S3 operations, from AWS's S3 service model (" + std::string(s3_model_source) +
         "); op= takes any name, case-insensitive:\n" + columns(rows, width) +
         "Other: a request that is no operation of the model.\n\nSets (op=@multipart):\n" +
         columns(sets, width);
}

std::string operations_markdown() {
  std::string out = "| operation | request | object body | note |\n|---|---|---|---|\n";
  for (const auto& shape : catalogue()) {
    const std::string body = shape.body == object_body::read    ? "read"
                             : shape.body == object_body::write ? "written"
                                                                : "—";
    const std::string note = alias_note(shape);
    out += "| `" + std::string(shape.name) + "` | `" + request_form(shape) + "` | " + body + " | " +
           (note.empty() ? "—" : note) + " |\n";
  }
  return out;
}

} // namespace s3fault::faults::config
