// Reading matrix files and putting matrices together:
//
//   text ──read_matrix_items──> items ──read_scenario / read_shape──> gate_matrix
//        (YAML, top level)            (every field; rules by the proxy's parser)
//        ──refuse_twins──> names unique within the file; merge_matrix: across files
#include "conformance/gate/gate_matrix.hpp"

#include "conformance/gate/matrix_entries.hpp"
#include "conformance/gate/matrix_file.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>

namespace s3fault::gate {
namespace {

/// A scenario or shape whose name another before it in the same file has, named with both.
template <typename Entry>
void refuse_twins(const std::vector<Entry>& entries, std::string_view kind,
                  std::vector<std::string>& errors) {
  std::map<std::string, std::size_t> first_with_name;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& entry = entries[i];
    if (entry.name.empty()) {
      continue; // its own message says why
    }
    const auto [first, added] = first_with_name.emplace(entry.name, i);
    if (!added) {
      errors.push_back(entry.origin + ": " + std::string(kind) + " " + std::to_string(i + 1) +
                       " (" + entry.name + "): name: already used by " + std::string(kind) + " " +
                       std::to_string(first->second + 1) + " at " + entries[first->second].origin);
    }
  }
}

/// Appends the entries of `more` whose names `into` does not have yet; each other one is a
/// mistake naming both places.
template <typename Entry>
void append_unique(std::vector<Entry>& into, std::vector<Entry> more, std::string_view kind,
                   std::vector<std::string>& errors) {
  for (auto& entry : more) {
    const auto twin = std::find_if(into.begin(), into.end(),
                                   [&](const Entry& other) { return other.name == entry.name; });
    if (twin != into.end()) {
      errors.push_back(entry.origin + ": " + std::string(kind) + " " + entry.name +
                       ": name: already defined at " + twin->origin);
      continue;
    }
    into.push_back(std::move(entry));
  }
}

/// The line of a message "NAME:LINE: ..." or "NAME:LINE:COLUMN: ..."; 0 when it has none.
std::size_t message_line(std::string_view message, std::string_view name) {
  std::size_t line = 0;
  if (!message.starts_with(name) || message.substr(name.size()).substr(0, 1) != ":") {
    return line;
  }
  for (const char c : message.substr(name.size() + 1)) {
    if (c < '0' || c > '9') {
      break;
    }
    line = line * 10 + static_cast<std::size_t>(c - '0');
  }
  return line;
}

/// The messages from `first` on, in the order of their lines, as the file reads: fields are
/// checked in an order of their own, and the rules of a scenario all together. Messages of one
/// line keep their order.
void sort_by_line(std::vector<std::string>& errors, std::size_t first, std::string_view name) {
  std::stable_sort(errors.begin() + static_cast<std::ptrdiff_t>(first), errors.end(),
                   [&](const std::string& a, const std::string& b) {
                     return message_line(a, name) < message_line(b, name);
                   });
}

/// `key` as a glob that matches only itself: the glob characters of faults::glob_matches, each
/// written as a one-character set.
std::string literal_glob(const std::string& key) {
  std::string glob;
  for (const char c : key) {
    if (c == '*' || c == '?' || c == '[') {
      glob += std::string("[") + c + "]";
    } else {
      glob += c;
    }
  }
  return glob;
}

} // namespace

gate_matrix read_matrix_text(std::string_view text, const std::string& name,
                             std::vector<std::string>& errors) {
  const std::size_t first_error = errors.size();
  const matrix_items items = read_matrix_items(text, name, errors);
  gate_matrix matrix;
  for (std::size_t i = 0; i < items.scenarios.size(); ++i) {
    matrix.scenarios.push_back(read_scenario(items.scenarios[i], name, i + 1, errors));
  }
  for (std::size_t i = 0; i < items.shapes.size(); ++i) {
    matrix.shapes.push_back(read_shape(items.shapes[i], name, i + 1, errors));
  }
  refuse_twins(matrix.scenarios, "scenario", errors);
  refuse_twins(matrix.shapes, "shape", errors);
  sort_by_line(errors, first_error, name);
  return matrix;
}

gate_matrix load_matrix_file(const std::string& path, std::vector<std::string>& errors) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  if (file) {
    text << file.rdbuf();
  }
  if (!file || file.bad()) {
    errors.push_back(path + ": cannot read (" + std::strerror(errno) + ")");
    return {};
  }
  return read_matrix_text(text.str(), path, errors);
}

void merge_matrix(gate_matrix& into, gate_matrix more, std::vector<std::string>& errors) {
  append_unique(into.scenarios, std::move(more.scenarios), "scenario", errors);
  append_unique(into.shapes, std::move(more.shapes), "shape", errors);
}

nlohmann::json run_rules_document(const scenario& s, const std::string& key, std::uint64_t seed) {
  nlohmann::json rules = nlohmann::json::array();
  for (nlohmann::json rule : s.rules) {
    if (!rule.contains("match") || !rule["match"].is_object()) {
      rule["match"] = nlohmann::json::object();
    }
    rule["match"]["key"] = literal_glob(key);
    rules.push_back(std::move(rule));
  }
  return {{"seed", seed}, {"rules", std::move(rules)}};
}

} // namespace s3fault::gate
