// Matrices from several sources: a file read from disk, appended to another, a name defined in
// both reported with both places.
#include "conformance/gate/gate_matrix.hpp"

#include "matrix_test_support.hpp"

#include "tests/support/temp_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace s3fault::gate {
namespace {

using texts = std::vector<std::string>;

using s3fault::testing::temp_file;

TEST(LoadMatrixFile, MessagesNameThePath) {
  const temp_file file("mine.yaml", "shapes:\n  - {name: s, description: d, size: lots}\n");
  std::vector<std::string> errors;
  load_matrix_file(file.path(), errors);
  EXPECT_EQ(errors, (texts{file.path() + ":2: shape 1 (s): size: must be a size in bytes like "
                                         "8388609, or like 12MiB (got \"lots\")"}));
}

TEST(LoadMatrixFile, AMissingFileIsAMistake) {
  std::vector<std::string> errors;
  load_matrix_file("/nonexistent/mine.yaml", errors);
  EXPECT_EQ(errors, (texts{"/nonexistent/mine.yaml: cannot read (No such file or directory)"}));
}

TEST(MergeMatrix, AppendsInOrderAndNamesBothPlacesOfATwin) {
  gate_matrix into = testing::read_good("scenarios:\n  - {name: a, description: d}\n"
                                        "shapes:\n  - {name: s, description: d, size: 1}\n");
  std::vector<std::string> errors;
  gate_matrix more = read_matrix_text("scenarios:\n  - {name: b, description: d}\n"
                                      "  - {name: a, description: again}\n"
                                      "shapes:\n  - {name: s, description: d, size: 2}\n",
                                      "mine.yaml", errors);
  ASSERT_TRUE(errors.empty());
  merge_matrix(into, std::move(more), errors);
  EXPECT_EQ(errors, (texts{"mine.yaml:3: scenario a: name: already defined at t.yaml:2",
                           "mine.yaml:5: shape s: name: already defined at t.yaml:4"}));
  ASSERT_EQ(into.scenarios.size(), 2u);
  EXPECT_EQ(into.scenarios[1].name, "b");
  EXPECT_EQ(into.scenarios[1].origin, "mine.yaml:2");
  ASSERT_EQ(into.shapes.size(), 1u);
  EXPECT_EQ(into.shapes[0].size, 1u) << "the first definition stays";
}

TEST(LoadGateMatrix, EveryMistakeOfEveryFileAtOnceTheRoleCheckIncluded) {
  // a.yaml's glob matches a shape of b.yaml only; b.yaml has a mistake of its own and a name
  // the built-in writers' matrix has.
  const temp_file a("a.yaml", "scenarios:\n"
                              "  - name: ours-replaced\n"
                              "    description: d\n"
                              "    action: replace-after-first-read\n"
                              "    shapes: [\"b-*\"]\n"
                              "    needs_injection: false\n");
  const temp_file b("b.yaml", "scenarios:\n"
                              "  - name: baseline\n"
                              "    description: d\n"
                              "    expect: sometimes\n"
                              "shapes:\n"
                              "  - {name: b-1, description: d, size: 1}\n");
  std::vector<std::string> errors;
  load_gate_matrix(run_role::writer, {a.path(), b.path()}, errors);
  ASSERT_EQ(errors.size(), 3u) << ::testing::PrintToString(errors);
  EXPECT_EQ(errors[0], a.path() + ":4: scenario 1 (ours-replaced): action "
                                  "replace-after-first-read is for readers; this gate runs a "
                                  "writer");
  EXPECT_EQ(errors[1].rfind(b.path() + ":4: scenario 1 (baseline): expect: must be one of", 0), 0u)
      << errors[1];
  EXPECT_EQ(errors[2].rfind(b.path() + ":2: scenario baseline: name: already defined at "
                                       "builtin-writer-matrix.yaml:",
                            0),
            0u)
      << errors[2];
}

TEST(LoadGateMatrix, GoodFilesAddToTheRolesBuiltInMatrix) {
  const temp_file a("a.yaml", "scenarios:\n"
                              "  - {name: ours, description: d, action: overwrite, shapes: [b-1],"
                              " needs_injection: false}\n");
  const temp_file b("b.yaml", "shapes:\n  - {name: b-1, description: d, size: 1}\n");
  std::vector<std::string> errors;
  const gate_matrix matrix = load_gate_matrix(run_role::writer, {a.path(), b.path()}, errors);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  EXPECT_EQ(matrix.scenarios.size(), builtin_writer_matrix().scenarios.size() + 1);
  EXPECT_EQ(matrix.shapes.back().name, "b-1");
}

TEST(LoadGateMatrix, ANameGivenTwiceIsNamedOnTheLineOfTheName) {
  // The names are not on the first line of their entries.
  const temp_file a("a.yaml", "scenarios:\n"
                              "  - description: mine\n"
                              "    name: baseline\n"
                              "    needs_injection: false\n"
                              "  - description: again\n"
                              "    name: ours\n"
                              "    needs_injection: false\n"
                              "  - description: and again\n"
                              "    needs_injection: false\n"
                              "    name: ours\n");
  std::vector<std::string> errors;
  load_gate_matrix(run_role::reader, {a.path()}, errors);
  ASSERT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_EQ(errors[0], a.path() + ":10: scenario 3 (ours): name: already used by scenario 2 at " +
                           a.path() + ":5");
  EXPECT_EQ(errors[1].rfind(a.path() + ":3: scenario baseline: name: already defined at "
                                       "builtin-matrix.yaml:",
                            0),
            0u)
      << errors[1];
}

} // namespace
} // namespace s3fault::gate
