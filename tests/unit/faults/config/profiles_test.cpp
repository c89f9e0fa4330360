// Store profiles: every shipped one loads and builds valid rules, the profile section and
// `reproduces` are checked, and mistakes name what is wrong.
#include "faults/config/profiles.hpp"

#include "faults/config/build_rules.hpp"
#include "faults/config/rule_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

namespace s3fault::faults::config {
namespace {

TEST(profiles, the_three_named_ones_are_shipped) {
  std::set<std::string_view> names;
  for (const auto& p : shipped_profiles()) {
    names.insert(p.name);
  }
  EXPECT_EQ(names, (std::set<std::string_view>{"rgw-16.2", "s3rver-3.7", "rustfs-1.0.0-rc.5"}));
  EXPECT_EQ(find_shipped_profile("rgw-16"), nullptr);
}

TEST(profiles, every_shipped_profile_loads_and_builds) {
  for (const auto& shipped : shipped_profiles()) {
    SCOPED_TRACE(std::string(shipped.name));
    error_list errors;
    const auto profile = load_profile(std::string(shipped.name), errors);
    ASSERT_TRUE(profile) << ::testing::PrintToString(errors);
    EXPECT_EQ(profile->description.name, shipped.name);
    EXPECT_FALSE(profile->description.store.empty());
    EXPECT_FALSE(profile->description.version.empty());
    EXPECT_FALSE(profile->description.source.empty());
    const auto build = build_rules(rule_sources{{}, {}, {}, {std::string(shipped.name)}, {}});
    ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
    EXPECT_EQ(build.rules.size(), profile->rules.entries.size());
    for (const auto& r : build.rules) {
      EXPECT_TRUE(r.name.starts_with(shipped.name.substr(0, shipped.name.find_first_of("-."))))
          << r.name;
    }
  }
}

TEST(profiles, reproduces_is_kept_in_the_definition) {
  const auto build = build_rules(rule_sources{{}, {}, {}, {"rgw-16.2"}, {}});
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  EXPECT_EQ(build.rules[0].definition["reproduces"][0], "part.status");
}

// RGW 16.2 and s3rver 3.7 answer a HEAD with a Range as the ranged GET; both profiles replay it
// with head-as-get, so the check is reproduced rather than listed as not.
TEST(profiles, rgw_and_s3rver_answer_a_ranged_head_as_the_ranged_get) {
  for (const std::string name : {"rgw-16.2", "s3rver-3.7"}) {
    SCOPED_TRACE(name);
    error_list errors;
    const auto profile = load_profile(name, errors);
    ASSERT_TRUE(profile) << ::testing::PrintToString(errors);
    for (const auto& [check, why] : profile->description.not_reproduced) {
      EXPECT_NE(check, "range.head-ignored");
    }
    const auto build = build_rules(rule_sources{{}, {}, {}, {name}, {}});
    ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
    const auto ranged_head =
        std::find_if(build.rules.begin(), build.rules.end(), [](const rule& r) {
          return r.definition.value("reproduces", nlohmann::json::array()) ==
                 nlohmann::json::array({"range.head-ignored"});
        });
    ASSERT_NE(ranged_head, build.rules.end());
    EXPECT_EQ(
        ranged_head->definition["match"],
        nlohmann::json::parse(R"({"operations": ["HeadObject"], "headers": {"range": "*"}})"));
    EXPECT_EQ(ranged_head->definition["actions"],
              nlohmann::json::parse(R"([{"type": "head-as-get"}])"));
  }
}

rule_build build_text(const std::string& yaml) {
  error_list errors;
  auto document = read_rule_text(yaml, "p.yaml", errors);
  rule_build build = parse_rules(document.entries);
  build.errors.insert(build.errors.begin(), errors.begin(), errors.end());
  return build;
}

TEST(profiles, reproduces_must_be_check_ids) {
  const auto build =
      build_text("rules:\n  - reproduces: [part.status, 'Not An Id', 3]\n    actions: [reset]\n");
  EXPECT_EQ(build.errors,
            (error_list{"p.yaml:2: rule 1 (reset-1): reproduces[1]: must be an audit check id like "
                        "part.status (got \"Not An Id\")",
                        "p.yaml:2: rule 1 (reset-1): reproduces[2]: must be an audit check id like "
                        "part.status (got 3)"}));
  EXPECT_FALSE(build_text("rules:\n  - reproduces: part.status\n    actions: [reset]\n").ok());
}

TEST(profiles, the_profile_section_is_checked) {
  error_list errors;
  const auto missing =
      read_profile_description(nlohmann::json::parse(R"({"name": "x"})"), "f", errors);
  EXPECT_FALSE(missing);
  EXPECT_EQ(errors,
            (error_list{"f: profile.description: missing (text)",
                        "f: profile.store: missing (text)", "f: profile.version: missing (text)"}));
  errors.clear();
  const auto bad = read_profile_description(
      nlohmann::json::parse(R"({"name": "x", "description": "d", "store": "s", "version": "1",
                                "colour": 1, "not_reproduced": [{"check": "a"}]})"),
      "f", errors);
  EXPECT_FALSE(bad);
  EXPECT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_TRUE(errors[0].starts_with("f: profile.colour: unknown key")) << errors[0];
  EXPECT_TRUE(errors[1].starts_with("f: profile.not_reproduced[0]: must be {check: ID, why: TEXT}"))
      << errors[1];
}

TEST(profiles, an_unknown_name_lists_the_shipped_ones) {
  error_list errors;
  EXPECT_FALSE(load_profile("rgw-99", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "profile 'rgw-99': neither a shipped profile (rgw-16.2, rustfs-1.0.0-rc.5, "
                       "s3rver-3.7) nor a file");
  const auto build = build_rules(rule_sources{{}, {}, {}, {"rgw-99"}, {}});
  EXPECT_FALSE(build.ok());
}

TEST(profiles, a_rules_file_without_a_profile_section_is_not_a_profile) {
  const std::string path = ::testing::TempDir() + "plain-rules.yaml";
  {
    std::FILE* file = std::fopen(path.c_str(), "w");
    ASSERT_NE(file, nullptr);
    std::fputs("rules:\n  - actions: [reset]\n", file);
    std::fclose(file);
  }
  error_list errors;
  EXPECT_FALSE(load_profile(path, errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(errors[0].starts_with(path + ": not a profile")) << errors[0];
}

TEST(profiles, an_unknown_name_comes_with_the_nearest_shipped_ones) {
  error_list errors;
  EXPECT_FALSE(load_profile("rgw-16", errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0], "profile 'rgw-16': neither a shipped profile (nearest: rgw-16.2; shipped: "
                       "rgw-16.2, rustfs-1.0.0-rc.5, s3rver-3.7) nor a file");
}

TEST(profiles, the_build_names_the_rules_each_profile_gave) {
  const auto build = build_rules(
      rule_sources{{"strip-header ETag"}, {}, {}, {"rgw-16.2", "rustfs-1.0.0-rc.5"}, {}});
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  ASSERT_EQ(build.profile_rules.size(), 2u);
  EXPECT_EQ(build.profile_rules[0].first, "rgw-16.2");
  EXPECT_EQ(build.profile_rules[0].second.front(), "rgw-ignores-part-number");
  EXPECT_EQ(build.profile_rules[1].first, "rustfs-1.0.0-rc.5");
  // Every rule but the --fault one came from a profile.
  EXPECT_EQ(build.profile_rules[0].second.size() + build.profile_rules[1].second.size(),
            build.rules.size() - 1);
  EXPECT_EQ(build.profile_rules[1].second.back(), build.rules[build.rules.size() - 2].name);
}

} // namespace
} // namespace s3fault::faults::config
