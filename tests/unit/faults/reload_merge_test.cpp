// What a reload does with the admin API's changes: dropped by default and named one by one;
// kept with --keep-api-rules where the sources left the rule alone, in the rule's own place.
#include "faults/reload_merge.hpp"

#include "faults/config/fault_spec.hpp"
#include "faults/config/rule_parser.hpp"

#include <gtest/gtest.h>

namespace s3fault::faults {
namespace {

/// One validated rule from a one-line spec.
rule rule_from_line(const std::string& spec) {
  error_list errors;
  const auto json = config::fault_spec_to_json(spec, errors);
  EXPECT_TRUE(json) << spec;
  auto build = config::parse_rule_document(nlohmann::json::array({json.value_or(nullptr)}));
  EXPECT_TRUE(build.ok()) << spec << ": " << ::testing::PrintToString(build.errors);
  return build.rules.at(0);
}

rule switched_off_copy(rule r) {
  r.enabled = false;
  r.definition["enabled"] = false;
  return r;
}

std::vector<std::string> names_in_order(const std::vector<rule>& rules) {
  std::vector<std::string> out;
  for (const auto& r : rules) {
    out.push_back(r.name);
  }
  return out;
}

std::vector<std::string> described_notes(const std::vector<api_change_note>& notes) {
  std::vector<std::string> out;
  for (const auto& n : notes) {
    out.push_back(describe(n));
  }
  return out;
}

class ReloadMerge : public ::testing::Test {
protected:
  const rule slow = rule_from_line("error SlowDown op=GetObject name=slow");
  const rule boom = rule_from_line("error InternalError op=PutObject name=boom");
  const rule stall = rule_from_line("delay 1s op=HeadObject name=stall");
  const rule slow_edited = rule_from_line("error SlowDown op=GetObject first=2 name=slow");
  const rule page_rule = rule_from_line("reset op=ListObjectsV2 name=from-page");
  // Loaded: slow, boom, stall. Live (the API's doing): slow edited, boom switched off, stall
  // deleted, from-page added.
  const std::vector<rule> loaded{slow, boom, stall};
  const std::vector<rule> live{slow_edited, switched_off_copy(boom), page_rule};
};

TEST_F(ReloadMerge, ByDefaultEveryApiChangeIsDroppedAndNamed) {
  const auto merged = merge_reload(loaded, live, loaded, false);
  EXPECT_EQ(names_in_order(merged.rules), (std::vector<std::string>{"slow", "boom", "stall"}));
  EXPECT_TRUE(merged.rules[1].enabled);
  EXPECT_EQ(merged.rules[0].definition, slow.definition);
  EXPECT_EQ(described_notes(merged.dropped),
            (std::vector<std::string>{
                "rule slow (edited through the admin API): dropped: back to the sources' version",
                "rule boom (switched off through the admin API): dropped: back to the sources' "
                "version",
                "rule stall (deleted through the admin API): dropped: back to the sources' "
                "version",
                "rule from-page (added through the admin API): dropped: the sources have no such "
                "rule"}));
  EXPECT_TRUE(merged.kept.empty());
}

TEST_F(ReloadMerge, KeptChangesStayInTheirPlaceAndAddedRulesFollow) {
  const auto merged = merge_reload(loaded, live, loaded, true);
  EXPECT_EQ(names_in_order(merged.rules), (std::vector<std::string>{"slow", "boom", "from-page"}));
  EXPECT_EQ(merged.rules[0].definition, slow_edited.definition);
  EXPECT_FALSE(merged.rules[1].enabled);
  EXPECT_EQ(merged.kept.size(), 4U);
  EXPECT_TRUE(merged.dropped.empty());
}

TEST_F(ReloadMerge, TheSourcesWinARuleTheyChangedToo) {
  const rule boom_from_file =
      rule_from_line("error InternalError op=PutObject probability=0.5 name=boom");
  const rule same_name_as_page = rule_from_line("delay 2s op=ListObjectsV2 name=from-page");
  const auto merged =
      merge_reload(loaded, live, {slow, boom_from_file, stall, same_name_as_page}, true);
  EXPECT_EQ(names_in_order(merged.rules), (std::vector<std::string>{"slow", "boom", "from-page"}));
  EXPECT_EQ(merged.rules[1].definition, boom_from_file.definition);
  EXPECT_TRUE(merged.rules[1].enabled);
  EXPECT_EQ(merged.rules[2].definition, same_name_as_page.definition);
  EXPECT_EQ(described_notes(merged.dropped),
            (std::vector<std::string>{
                "rule boom (switched off through the admin API): dropped: the sources changed "
                "this rule too, and theirs wins",
                "rule from-page (added through the admin API): dropped: the sources now have a "
                "rule of this name, and theirs wins"}));
  EXPECT_EQ(merged.kept.size(), 2U); // slow's edit, stall's deletion
}

TEST_F(ReloadMerge, NothingChangedThroughTheApiIsNothingToSay) {
  const auto merged = merge_reload(loaded, loaded, {slow, boom}, false);
  EXPECT_EQ(names_in_order(merged.rules), (std::vector<std::string>{"slow", "boom"}));
  EXPECT_TRUE(merged.dropped.empty());
  EXPECT_TRUE(merged.kept.empty());
}

} // namespace
} // namespace s3fault::faults
