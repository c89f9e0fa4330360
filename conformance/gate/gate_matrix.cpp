// Reading matrix files and putting matrices together:
//
//   text ──read_matrix_items──> items ──read_scenario / read_shape──> gate_matrix
//        (YAML, top level)            (every field; rules by the proxy's parser)
//        ──refuse_twins──> names unique within the file; merge_matrix: across files
//
// load_gate_matrix reads every file against the gate's role and the shapes of every matrix, so
// that all mistakes, of every file, are listed at once.
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

/// "FILE:LINE" of the name of entry `i`, read from `items[i]` (one entry per item).
std::string name_place(const std::vector<matrix_item>& items, std::size_t i,
                       const std::string& file) {
  return file + ":" + std::to_string(i < items.size() ? items[i].line_of("name") : 0);
}

/// A scenario or shape whose name another before it in the same file has, named with both, on
/// the line of its name.
template <typename Entry>
void refuse_twins(const std::vector<Entry>& entries, const std::vector<matrix_item>& items,
                  const std::string& file, std::string_view kind,
                  std::vector<std::string>& errors) {
  std::map<std::string, std::size_t> first_with_name;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Entry& entry = entries[i];
    if (entry.name.empty()) {
      continue; // its own message says why
    }
    const auto [first, added] = first_with_name.emplace(entry.name, i);
    if (!added) {
      errors.push_back(name_place(items, i, file) + ": " + std::string(kind) + " " +
                       std::to_string(i + 1) + " (" + entry.name + "): name: already used by " +
                       std::string(kind) + " " + std::to_string(first->second + 1) + " at " +
                       entries[first->second].origin);
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

/// merge_matrix for one file read by load_gate_matrix, whose mistakes are already listed: a name
/// `into` has is a mistake on the line of the name; entries without a name, and the later ones
/// of a name given twice in the file (refuse_twins named them), are left out.
template <typename Entry>
void append_file_entries(std::vector<Entry>& into, std::vector<Entry> more,
                         const std::vector<matrix_item>& items, const std::string& file,
                         std::string_view kind, std::vector<std::string>& errors) {
  const std::size_t before = into.size();
  for (std::size_t i = 0; i < more.size(); ++i) {
    Entry& entry = more[i];
    const auto same_name = [&](const Entry& other) { return other.name == entry.name; };
    const auto twin = std::find_if(into.begin(), into.begin() + before, same_name);
    if (entry.name.empty() || std::any_of(into.begin() + before, into.end(), same_name)) {
      continue;
    }
    if (twin != into.begin() + before) {
      errors.push_back(name_place(items, i, file) + ": " + std::string(kind) + " " + entry.name +
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

/// The names a matrix file gives its shapes, as written (a name like 1024 read as a number).
std::vector<std::string> written_shape_names(const matrix_items& items) {
  std::vector<std::string> names;
  for (const auto& item : items.shapes) {
    const auto& fields = item.fields;
    if (fields.is_object() && fields.contains("name")) {
      if (fields["name"].is_string()) {
        names.push_back(fields["name"].get<std::string>());
      } else if (fields["name"].is_number_unsigned()) {
        names.push_back(fields["name"].dump());
      }
    }
  }
  return names;
}

/// The text of the file at `path`; nullopt, with a mistake, when it cannot be read.
std::optional<std::string> read_file_text(const std::string& path,
                                          std::vector<std::string>& errors) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  if (file) {
    text << file.rdbuf();
  }
  if (!file || file.bad()) {
    errors.push_back(path + ": cannot read (" + std::strerror(errno) + ")");
    return std::nullopt;
  }
  return text.str();
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
                             const matrix_context& context, std::vector<std::string>& errors) {
  const std::size_t first_error = errors.size();
  const matrix_items items = read_matrix_items(text, name, errors);
  std::optional<std::vector<std::string>> shapes = context.other_shapes;
  if (shapes) {
    const auto own = written_shape_names(items);
    shapes->insert(shapes->end(), own.begin(), own.end());
  }
  gate_matrix matrix;
  for (std::size_t i = 0; i < items.scenarios.size(); ++i) {
    matrix.scenarios.push_back(
        read_scenario(items.scenarios[i], name, i + 1, context, shapes, errors));
  }
  for (std::size_t i = 0; i < items.shapes.size(); ++i) {
    matrix.shapes.push_back(read_shape(items.shapes[i], name, i + 1, errors));
  }
  refuse_twins(matrix.scenarios, items.scenarios, name, "scenario", errors);
  refuse_twins(matrix.shapes, items.shapes, name, "shape", errors);
  sort_by_line(errors, first_error, name);
  return matrix;
}

gate_matrix read_matrix_text(std::string_view text, const std::string& name,
                             std::vector<std::string>& errors) {
  return read_matrix_text(text, name, matrix_context{}, errors);
}

gate_matrix load_matrix_file(const std::string& path, const matrix_context& context,
                             std::vector<std::string>& errors) {
  const auto text = read_file_text(path, errors);
  return text ? read_matrix_text(*text, path, context, errors) : gate_matrix{};
}

gate_matrix load_matrix_file(const std::string& path, std::vector<std::string>& errors) {
  return load_matrix_file(path, {}, errors);
}

gate_matrix load_gate_matrix(run_role role, const std::vector<std::string>& files,
                             std::vector<std::string>& errors) {
  gate_matrix matrix = role == run_role::writer ? builtin_writer_matrix() : builtin_matrix();
  // Every file's shapes first: a scenario's globs may name the shapes of any file.
  std::vector<std::optional<std::string>> texts;
  std::vector<matrix_items> items_of_file;
  std::vector<std::vector<std::string>> shapes_of_file;
  for (const auto& file : files) {
    texts.push_back(read_file_text(file, errors));
    std::vector<std::string> ignored; // reported when the file is read below
    items_of_file.push_back(texts.back() ? read_matrix_items(*texts.back(), file, ignored)
                                         : matrix_items{});
    shapes_of_file.push_back(written_shape_names(items_of_file.back()));
  }
  std::vector<std::string> builtin_shapes;
  for (const auto& shape : matrix.shapes) {
    builtin_shapes.push_back(shape.name);
  }
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!texts[i]) {
      continue;
    }
    matrix_context context{role, builtin_shapes};
    for (std::size_t j = 0; j < files.size(); ++j) {
      if (j != i) {
        context.other_shapes->insert(context.other_shapes->end(), shapes_of_file[j].begin(),
                                     shapes_of_file[j].end());
      }
    }
    gate_matrix more = read_matrix_text(*texts[i], files[i], context, errors);
    // A file with mistakes is merged too, so that a name another file or the built-in matrix
    // has is named with the rest.
    append_file_entries(matrix.scenarios, std::move(more.scenarios), items_of_file[i].scenarios,
                        files[i], "scenario", errors);
    append_file_entries(matrix.shapes, std::move(more.shapes), items_of_file[i].shapes, files[i],
                        "shape", errors);
  }
  return matrix;
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
