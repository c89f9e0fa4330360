#pragma once
// Shared helpers of the matrix tests: read a matrix text that must be right, or collect what is
// wrong with one.
#include "conformance/gate/gate_matrix.hpp"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

namespace s3fault::gate::testing {

/// Reads `text` as "t.yaml"; a mistake fails the test and is shown.
inline gate_matrix read_good(std::string_view text) {
  std::vector<std::string> errors;
  gate_matrix matrix = read_matrix_text(text, "t.yaml", errors);
  for (const auto& error : errors) {
    ADD_FAILURE() << error;
  }
  return matrix;
}

/// The mistakes found in `text`, read as "t.yaml".
inline std::vector<std::string> errors_of(std::string_view text) {
  std::vector<std::string> errors;
  read_matrix_text(text, "t.yaml", errors);
  return errors;
}

/// A file with one scenario that has `fields` (YAML lines indented for the entry) after its name
/// and description, which are on lines 2 and 3.
inline std::string one_scenario(std::string_view fields) {
  return "scenarios:\n  - name: s\n    description: d\n" + std::string(fields);
}

/// The same for one shape.
inline std::string one_shape(std::string_view fields) {
  return "shapes:\n  - name: s\n    description: d\n" + std::string(fields);
}

} // namespace s3fault::gate::testing
