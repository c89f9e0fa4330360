// The built-in matrix: builtin-matrix.yaml, compiled in as text (builtin_matrix_text.cpp.in)
// and read with the same reader as a user's file, once, on first use.
#include "conformance/gate/gate_matrix.hpp"

#include <stdexcept>

namespace s3fault::gate {

const gate_matrix& builtin_matrix() {
  // The tests read the same text, so a mistake here is a bug in the build, not the user's.
  static const gate_matrix matrix = [] {
    std::vector<std::string> errors;
    gate_matrix read = read_matrix_text(builtin_matrix_text(), "builtin-matrix.yaml", errors);
    if (!errors.empty()) {
      std::string message = "the built-in matrix has mistakes:";
      for (const auto& error : errors) {
        message += "\n  " + error;
      }
      throw std::logic_error(message);
    }
    return read;
  }();
  return matrix;
}

} // namespace s3fault::gate
