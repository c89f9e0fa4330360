// Every example rules file under examples/faults/ parses and validates.
#include "faults/config/build_rules.hpp"
#include "faults/config/rule_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace s3fault::faults::config {
namespace {

TEST(examples, every_example_rules_file_validates) {
  const std::filesystem::path dir = std::filesystem::path(S3FAULT_SOURCE_DIR) / "examples/faults";
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const auto extension = entry.path().extension();
    if (extension != ".yaml" && extension != ".yml" && extension != ".json") {
      continue;
    }
    SCOPED_TRACE(entry.path().string());
    ++files;
    const auto build = build_rules({}, {entry.path().string()}, {});
    EXPECT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
    EXPECT_FALSE(build.rules.empty());
  }
  EXPECT_GE(files, 4u);
}

// The full YAML example of docs/faults.md (its first ```yaml block) validates too.
TEST(examples, the_rules_file_example_of_the_docs_validates) {
  std::ifstream file(std::filesystem::path(S3FAULT_SOURCE_DIR) / "docs/faults.md");
  ASSERT_TRUE(file) << "docs/faults.md";
  std::stringstream text;
  text << file.rdbuf();
  const std::string docs = text.str();
  const std::size_t start = docs.find("```yaml\n");
  ASSERT_NE(start, std::string::npos);
  const std::size_t end = docs.find("```", start + 8);
  ASSERT_NE(end, std::string::npos);
  error_list errors;
  const auto document =
      read_rule_text(docs.substr(start + 8, end - start - 8), "docs/faults.md", errors);
  ASSERT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  const auto build = parse_rules(document.entries);
  EXPECT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  EXPECT_EQ(build.rules.size(), 4u);
  EXPECT_EQ(document.seed, 42u);
}

} // namespace
} // namespace s3fault::faults::config
