// The built-in matrices: builtin-matrix.yaml (readers) and builtin-writer-matrix.yaml
// (writers), compiled in as text (builtin_matrix_text.cpp.in) and read with the same reader as a
// user's file, once each, on first use.
#include "conformance/gate/gate_matrix.hpp"

#include <stdexcept>

namespace s3fault::gate {
namespace {

// The tests read the same text, so a mistake here is a bug in the build, not the user's.
gate_matrix read_builtin(std::string_view text, const std::string& name) {
  std::vector<std::string> errors;
  gate_matrix read = read_matrix_text(text, name, errors);
  if (!errors.empty()) {
    std::string message = "the built-in matrix " + name + " has mistakes:";
    for (const auto& error : errors) {
      message += "\n  " + error;
    }
    throw std::logic_error(message);
  }
  return read;
}

} // namespace

const gate_matrix& builtin_matrix() {
  static const gate_matrix matrix = read_builtin(builtin_matrix_text(), "builtin-matrix.yaml");
  return matrix;
}

const gate_matrix& builtin_writer_matrix() {
  static const gate_matrix matrix =
      read_builtin(builtin_writer_matrix_text(), "builtin-writer-matrix.yaml");
  return matrix;
}

} // namespace s3fault::gate
