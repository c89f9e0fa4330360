// The built-in matrix (builtin-matrix.yaml, compiled in): it reads without a mistake, its names
// are unique, the scenarios the gate relies on are there, and every rule is one the proxy takes.
#include "conformance/gate/gate_matrix.hpp"

#include "faults/config/rule_parser.hpp"
#include "faults/rule.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace s3fault::gate {
namespace {

/// The built-in matrix as read, mistakes or not: the tests of its contents do not depend on
/// every rule validating (EveryRuleIsOneTheProxyTakes checks that).
gate_matrix builtin_as_read() {
  std::vector<std::string> errors;
  return read_matrix_text(builtin_matrix_text(), "builtin-matrix.yaml", errors);
}

// Fails until the proxy has `truncate mode=length-only` and `reset-after 50%`
// (truncate-length-only, reset-mid-body, reset-mid-body-once).
TEST(BuiltinMatrix, ReadsWithoutAMistake) {
  try {
    const gate_matrix& matrix = builtin_matrix();
    EXPECT_EQ(matrix.scenarios.size(), builtin_as_read().scenarios.size());
    EXPECT_EQ(&matrix, &builtin_matrix()) << "read once";
  } catch (const std::logic_error& e) {
    ADD_FAILURE() << e.what();
  }
}

TEST(BuiltinMatrix, NamesAreUniqueAndOriginsNameTheFile) {
  const gate_matrix matrix = builtin_as_read();
  std::set<std::string> names;
  for (const auto& s : matrix.scenarios) {
    EXPECT_TRUE(names.insert("scenario " + s.name).second) << s.name;
    EXPECT_FALSE(s.why.empty()) << s.name;
    EXPECT_EQ(s.origin.rfind("builtin-matrix.yaml:", 0), 0u) << s.origin;
  }
  for (const auto& shape : matrix.shapes) {
    EXPECT_TRUE(names.insert("shape " + shape.name).second) << shape.name;
  }
}

TEST(BuiltinMatrix, BaselineComesFirstAndNeedsNoInjection) {
  const gate_matrix matrix = builtin_as_read();
  ASSERT_FALSE(matrix.scenarios.empty());
  const scenario& baseline = matrix.scenarios.front();
  EXPECT_EQ(baseline.name, "baseline");
  EXPECT_TRUE(baseline.rules.empty());
  EXPECT_FALSE(baseline.needs_injection);
  EXPECT_EQ(baseline.expect, expectation::must_recover);
}

const scenario* find_scenario(const gate_matrix& matrix, const std::string& name) {
  const auto found = std::find_if(matrix.scenarios.begin(), matrix.scenarios.end(),
                                  [&](const scenario& s) { return s.name == name; });
  return found == matrix.scenarios.end() ? nullptr : &*found;
}

TEST(BuiltinMatrix, HasTheScenariosTheGateNeeds) {
  const gate_matrix matrix = builtin_as_read();
  for (const char* name : {"baseline", "strip-parts-count", "parts-count-low", "parts-count-high",
                           "strip-content-range", "strip-both", "slowdown-first-2",
                           "slowdown-always", "internal-error-once", "reset-before-headers-once",
                           "truncate-close", "truncate-close-once", "truncate-consistent",
                           "corrupt", "replaced-between-reads", "throttled-body", "stalled-body"}) {
    EXPECT_NE(find_scenario(matrix, name), nullptr) << name;
  }
  const scenario* replaced = find_scenario(matrix, "replaced-between-reads");
  ASSERT_NE(replaced, nullptr);
  EXPECT_EQ(replaced->action, scenario_action::replace_after_first_read);
  EXPECT_FALSE(replaced->needs_injection);
  EXPECT_TRUE(find_scenario(matrix, "parts-count-low")->multipart_only);
}

// Fails until the proxy has `truncate mode=length-only` and `reset-after 50%`, like
// ReadsWithoutAMistake.
TEST(BuiltinMatrix, EveryRuleIsOneTheProxyTakes) {
  for (const auto& s : builtin_as_read().scenarios) {
    const auto built =
        faults::config::parse_rule_document(run_rules_document(s, "gate/k", 1), s.name);
    for (const auto& error : built.errors) {
      ADD_FAILURE() << error;
    }
    EXPECT_EQ(built.rules.size(), s.rules.size()) << s.name;
    EXPECT_EQ(s.rules_text.size(), s.rules.size()) << s.name;
  }
}

TEST(BuiltinMatrix, EveryScenarioAppliesToSomeShape) {
  const gate_matrix matrix = builtin_as_read();
  for (const auto& s : matrix.scenarios) {
    const bool applies =
        std::any_of(matrix.shapes.begin(), matrix.shapes.end(), [&](const object_shape& shape) {
          return (!s.multipart_only || shape.multipart()) &&
                 std::any_of(s.shape_globs.begin(), s.shape_globs.end(),
                             [&](const std::string& glob) {
                               return faults::glob_matches(glob, shape.name);
                             });
        });
    EXPECT_TRUE(applies) << s.name;
  }
}

TEST(BuiltinMatrix, HasTheShapesTheGateNeedsAndTheirPartsAddUp) {
  const gate_matrix matrix = builtin_as_read();
  std::set<std::string> names;
  for (const auto& shape : matrix.shapes) {
    names.insert(shape.name);
    if (shape.multipart()) {
      EXPECT_EQ(std::accumulate(shape.part_sizes.begin(), shape.part_sizes.end(), 0ull), shape.size)
          << shape.name;
    }
  }
  for (const char* name :
       {"empty", "1KiB", "single-20MiB", "mp-20MiB-8-8-4", "mp-16MiB-8-8", "mp-8MiB+1"}) {
    EXPECT_TRUE(names.count(name)) << name;
  }
}

gate_matrix writer_matrix_as_read() {
  std::vector<std::string> errors;
  return read_matrix_text(builtin_writer_matrix_text(), "builtin-writer-matrix.yaml", errors);
}

TEST(BuiltinWriterMatrix, ReadsWithoutAMistakeAndEveryRuleIsOneTheProxyTakes) {
  try {
    const gate_matrix& matrix = builtin_writer_matrix();
    EXPECT_EQ(&matrix, &builtin_writer_matrix()) << "read once";
  } catch (const std::logic_error& e) {
    ADD_FAILURE() << e.what();
  }
  for (const auto& s : writer_matrix_as_read().scenarios) {
    EXPECT_EQ(s.origin.rfind("builtin-writer-matrix.yaml:", 0), 0u) << s.origin;
    const auto built =
        faults::config::parse_rule_document(run_rules_document(s, "gate/k", 1), s.name);
    for (const auto& error : built.errors) {
      ADD_FAILURE() << error;
    }
    EXPECT_EQ(built.rules.size(), s.rules.size()) << s.name;
  }
}

TEST(BuiltinWriterMatrix, HasTheScenariosAndShapesOfTheWriterGate) {
  const gate_matrix matrix = writer_matrix_as_read();
  ASSERT_FALSE(matrix.scenarios.empty());
  EXPECT_EQ(matrix.scenarios.front().name, "baseline");
  EXPECT_FALSE(matrix.scenarios.front().needs_injection);
  for (const char* name :
       {"slowdown-first-2", "slowdown-always", "complete-internal-error-once",
        "complete-200-error-once", "put-answer-lost-once", "complete-answer-lost-once",
        "reset-mid-upload-once", "corrupt-upload-once", "part-etag-wrong-once", "stalled-upload",
        "throttled-upload", "overwrite-slowdown-always", "overwrite-complete-200-error-once"}) {
    EXPECT_NE(find_scenario(matrix, name), nullptr) << name;
  }
  for (const auto& s : matrix.scenarios) {
    EXPECT_TRUE(action_fits(s.action, true)) << s.name;
    EXPECT_EQ(s.action == scenario_action::overwrite, s.name.rfind("overwrite-", 0) == 0) << s.name;
  }
  EXPECT_EQ(find_scenario(matrix, "slowdown-always")->expect, expectation::must_not_corrupt);
  EXPECT_EQ(find_scenario(matrix, "complete-200-error-once")->expect, expectation::must_recover);
  EXPECT_EQ(find_scenario(matrix, "stalled-upload")->expect, expectation::informational);
  std::set<std::uint64_t> sizes;
  for (const auto& shape : matrix.shapes) {
    sizes.insert(shape.size);
    EXPECT_FALSE(shape.multipart()) << shape.name << ": a writer picks its own parts";
  }
  constexpr std::uint64_t mib = 1024 * 1024;
  for (const std::uint64_t size : {8 * mib - 1, 8 * mib + 1, 64 * mib}) {
    EXPECT_TRUE(sizes.count(size)) << size;
  }
}

TEST(BuiltinWriterMatrix, NoAnswerOnceHangsTheFirstUploadRequestPastTheClientsReadTimeout) {
  // As the readers' no-answer-once: a writer still waiting at 90 s (past the 60 s read timeout of
  // botocore, the aws cli and the built-in writers) would wait for ever; on a single PUT and on a
  // multipart upload, where the hung part leaves the upload open.
  const gate_matrix matrix = writer_matrix_as_read();
  const auto* s = find_scenario(matrix, "no-answer-once");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->expect, expectation::must_recover);
  ASSERT_TRUE(s->timeout.has_value());
  EXPECT_EQ(*s->timeout, std::chrono::seconds(90));
  EXPECT_EQ(s->rules_text, std::vector<std::string>{"hang op=PutObject,UploadPart first=1"});
  EXPECT_EQ(s->shape_globs, (std::vector<std::string>{"1KiB", "11MiB"}));
  EXPECT_TRUE(s->needs_injection);
  const auto* readers = find_scenario(builtin_matrix(), "no-answer-once");
  ASSERT_NE(readers, nullptr);
  EXPECT_EQ(readers->timeout, s->timeout) << "judged as the readers' no-answer-once";
}

} // namespace
} // namespace s3fault::gate
