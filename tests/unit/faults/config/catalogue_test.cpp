// The catalogue made from the registries: every action and preset appears, the columns wrap,
// and the actions table of docs/faults.md is exactly the one the catalogue makes.
#include "faults/action_registry.hpp"
#include "faults/config/catalogue.hpp"
#include "faults/config/presets.hpp"
#include "faults/operations/catalogue.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace s3fault::faults;

namespace {

std::string docs_block(std::string_view begin_marker, std::string_view end_marker) {
  std::ifstream file(std::filesystem::path(S3FAULT_SOURCE_DIR) / "docs/faults.md");
  std::stringstream text;
  text << file.rdbuf();
  const std::string all = text.str();
  const auto begin = all.find(begin_marker);
  const auto end = all.find(end_marker);
  if (begin == std::string::npos || end == std::string::npos || end < begin) {
    return "(markers not found)";
  }
  const auto first = all.find('\n', begin) + 1;
  return all.substr(first, end - first);
}

} // namespace

TEST(catalogue, docs_actions_table_is_the_one_the_registry_makes) {
  EXPECT_EQ(docs_block("<!-- BEGIN actions table", "<!-- END actions table"),
            config::actions_markdown())
      << "run docs/render-actions.sh to bring docs/faults.md in step with the registry";
}

TEST(catalogue, docs_operations_table_is_the_one_the_catalogue_makes) {
  EXPECT_EQ(docs_block("<!-- BEGIN operations table", "<!-- END operations table"),
            config::operations_markdown())
      << "run docs/render-actions.sh to bring docs/faults.md in step with the catalogue";
}

TEST(catalogue, text_lists_every_operation_and_marks_the_aliases) {
  const std::string text = config::operations_text(300); // wide: no note is wrapped
  for (const auto& shape : catalogue()) {
    EXPECT_NE(text.find("\n  " + std::string(shape.name) + " "), std::string::npos) << shape.name;
  }
  EXPECT_NE(text.find("GetBucketLifecycle  "), std::string::npos);
  EXPECT_NE(text.find("(deprecated alias of GetBucketLifecycleConfiguration)"), std::string::npos);
  EXPECT_NE(text.find("@multipart"), std::string::npos);
}

TEST(catalogue, text_lists_every_action_with_its_example_and_every_preset) {
  const std::string actions = config::actions_text(100);
  for (const auto& kind : action_kinds()) {
    EXPECT_NE(("\n" + actions).find("\n  " + std::string(kind.type) + " "), std::string::npos)
        << kind.type;
    ASSERT_FALSE(kind.example.empty()) << kind.type;
    EXPECT_NE(actions.find(std::string(kind.example).substr(0, 10)), std::string::npos);
  }
  const std::string presets = config::presets_text(100);
  for (const auto& preset : config::presets()) {
    EXPECT_NE(presets.find("  " + std::string(preset.name) + " "), std::string::npos);
  }
}

TEST(catalogue, columns_wrap_within_the_width) {
  for (const std::size_t width : {60u, 80u, 120u}) {
    std::istringstream lines(config::actions_text(width) + config::presets_text(width));
    for (std::string line; std::getline(lines, line);) {
      // A single word longer than the room may stand alone; nothing else passes the width.
      if (line.size() > width) {
        EXPECT_EQ(line.find(' ', line.find_first_not_of(' ')), std::string::npos) << line;
      }
    }
  }
}

TEST(catalogue, non_positional_parameters_are_shown_as_name_equals) {
  const std::string text = config::actions_text(200);
  EXPECT_NE(text.find("  delay                "), std::string::npos) << text;
  EXPECT_NE(text.find(" duration jitter\n"), std::string::npos) << text;
  EXPECT_NE(text.find(" code status message= retry_after=\n"), std::string::npos) << text;
}
