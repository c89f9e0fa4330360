// The start-up entry point: presets, files and specs make one set, in that order.
#include "faults/config/build_rules.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace s3fault::faults::config {
namespace {

class rules_dir {
public:
  rules_dir() {
    path_ = std::filesystem::temp_directory_path() /
            ("s3fault-build-rules-test-" + std::to_string(::getpid()));
    std::filesystem::create_directories(path_);
  }
  ~rules_dir() { std::filesystem::remove_all(path_); }
  rules_dir(const rules_dir&) = delete;
  rules_dir& operator=(const rules_dir&) = delete;

  std::string write(const std::string& name, std::string_view content) const {
    const auto file = path_ / name;
    std::ofstream(file) << content;
    return file.string();
  }

private:
  std::filesystem::path path_;
};

TEST(build_rules, nothing_given_is_an_empty_set) {
  const auto build = build_rules({}, {}, {});
  EXPECT_TRUE(build.ok());
  EXPECT_TRUE(build.rules.empty());
  EXPECT_FALSE(build.seed.has_value());
}

TEST(build_rules, presets_then_files_then_specs_with_positions_numbering_default_names) {
  const rules_dir dir;
  const auto file = dir.write("rules.yaml", "seed: 5\nrules:\n  - actions: [hang]\n");
  const auto build = build_rules({"delay 1s", "reset"}, {file}, {"bit-rot"});
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  ASSERT_EQ(build.rules.size(), 4u);
  EXPECT_EQ(build.rules[0].name, "bit-rot");
  EXPECT_EQ(build.rules[1].name, "hang-2");
  EXPECT_EQ(build.rules[2].name, "delay-3");
  EXPECT_EQ(build.rules[3].name, "reset-4");
  EXPECT_EQ(build.seed, 5u);
}

TEST(build_rules, names_are_unique_across_sources) {
  const rules_dir dir;
  const auto file = dir.write("rules.yaml", "rules:\n  - name: x\n    actions: [hang]\n");
  const auto build = build_rules({"reset name=x"}, {file}, {});
  EXPECT_EQ(build.errors, (error_list{"--fault 1 ('reset name=x'): name: 'x' is already used by " +
                                      file + ":2: rule 1 (x)"}));
}

TEST(build_rules, files_must_agree_on_the_seed) {
  const rules_dir dir;
  const auto a = dir.write("a.yaml", "seed: 1\nrules: []\n");
  const auto b = dir.write("b.json", R"({"seed": 1, "rules": []})");
  const auto c = dir.write("c.yaml", "seed: 2\nrules: []\n");
  EXPECT_TRUE(build_rules({}, {a, b}, {}).ok());
  EXPECT_EQ(build_rules({}, {a, c}, {}).errors,
            (error_list{c + ": seed: 2 differs from the seed 1 of " + a +
                        " (a rule set has one seed: give --seed N to choose it)"}));
}

TEST(build_rules, the_seed_option_overrides_the_files_seeds) {
  const rules_dir dir;
  const auto a = dir.write("a.yaml", "seed: 1\nrules:\n  - actions: [hang]\n");
  const auto c = dir.write("c.yaml", "seed: 2\nrules:\n  - actions: [reset]\n");
  const auto none = dir.write("none.yaml", "rules: []\n");
  const auto disagreeing = build_rules({}, {a, c}, {}, 9);
  ASSERT_TRUE(disagreeing.ok()) << ::testing::PrintToString(disagreeing.errors);
  EXPECT_EQ(disagreeing.seed, 9u);
  EXPECT_EQ(disagreeing.rules.size(), 2u);
  EXPECT_EQ(build_rules({}, {a}, {}, 9).seed, 9u);
  EXPECT_EQ(build_rules({}, {none}, {}, 0).seed, 0u);
  EXPECT_EQ(build_rules({}, {a}, {}).seed, 1u);
  EXPECT_FALSE(build_rules({}, {none}, {}).seed.has_value());
}

TEST(build_rules, the_seed_option_does_not_hide_other_mistakes) {
  const rules_dir dir;
  const auto a = dir.write("a.yaml", "seed: 1\nrules: []\n");
  const auto bad = dir.write("bad.yaml", "seed: x\nrules: []\n");
  EXPECT_EQ(build_rules({}, {a, bad}, {}, 9).errors,
            (error_list{bad + ":1: seed: must be a whole number >= 0 (got \"x\")"}));
}

} // namespace
} // namespace s3fault::faults::config
