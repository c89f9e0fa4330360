#include "faults/config/catalogue.hpp"

#include "faults/action_registry.hpp"
#include "faults/config/presets.hpp"

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

} // namespace s3fault::faults::config
