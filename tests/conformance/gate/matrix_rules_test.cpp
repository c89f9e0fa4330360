// A scenario's rules: checked by the proxy's parser with the scenario's place in every message,
// never naming match.key, and turned into the rules document of one run.
#include "conformance/gate/gate_matrix.hpp"

#include "faults/config/rule_parser.hpp"
#include "faults/rule.hpp"
#include "matrix_test_support.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace s3fault::gate {
namespace {

using nlohmann::json;
using testing::errors_of;
using testing::one_scenario;
using testing::read_good;
using texts = std::vector<std::string>;

TEST(ScenarioRules, MatchKeyIsRefusedInBothForms) {
  EXPECT_EQ(errors_of(one_scenario("    rules:\n"
                                   "      - reset op=GetObject key=data/x\n"
                                   "      - {actions: [reset], match: {key: \"data/*\"}}\n")),
            (texts{"t.yaml:5: scenario 1 (s): rules[1]: match.key: not allowed: the gate sets it "
                   "to the key of each run's object",
                   "t.yaml:6: scenario 1 (s): rules[2]: match.key: not allowed: the gate sets it "
                   "to the key of each run's object"}));
}

TEST(ScenarioRules, ProxyMessagesCarryTheScenariosPlace) {
  const auto errors = errors_of(one_scenario("    rules:\n"
                                             "      - explode op=GetObject\n"
                                             "      - {actions: [{delay: forever}]}\n"
                                             "      - 'reset op=GetObject name=\"unclosed'\n"
                                             "      - 42\n"));
  ASSERT_EQ(errors.size(), 4u) << ::testing::PrintToString(errors);
  // In the order of the lines, though the proxy's parser sees the rules after the gate's checks.
  const std::vector<std::string> places = {
      "t.yaml:5: scenario 1 (s): rules[1]: ", "t.yaml:6: scenario 1 (s): rules[2]: ",
      "t.yaml:7: scenario 1 (s): rules[3]: ", "t.yaml:8: scenario 1 (s): rules[4]: "};
  for (std::size_t i = 0; i < places.size(); ++i) {
    EXPECT_EQ(errors[i].substr(0, places[i].size()), places[i]) << errors[i];
  }
  EXPECT_NE(errors[0].find("unknown action 'explode'"), std::string::npos) << errors[0];
  EXPECT_NE(errors[1].find("delay."), std::string::npos) << errors[1];
  EXPECT_NE(errors[3].find("must be a one-line rule"), std::string::npos) << errors[3];
}

TEST(ScenarioRules, RuleNamesAreUniqueWithinAScenario) {
  const auto errors = errors_of(one_scenario("    rules:\n"
                                             "      - reset name=r op=GetObject\n"
                                             "      - reset name=r op=HeadObject\n"));
  ASSERT_EQ(errors.size(), 1u) << ::testing::PrintToString(errors);
  EXPECT_NE(errors[0].find("t.yaml:6: scenario 1 (s): rules[2]: name: 'r' is already used by "
                           "t.yaml:5: scenario 1 (s): rules[1]"),
            std::string::npos)
      << errors[0];
}

TEST(ScenarioRules, NothingToInjectIsAMistake) {
  EXPECT_EQ(errors_of(one_scenario("    needs_injection: true\n")),
            (texts{"t.yaml:4: scenario 1 (s): needs_injection: true, but the scenario has no rules "
                   "and no action, so nothing is injected (give it rules, or needs_injection: "
                   "false)"}));
  EXPECT_TRUE(errors_of(one_scenario("    needs_injection: false\n")).empty());
  EXPECT_TRUE(
      errors_of(one_scenario("    rules: [reset op=GetObject]\n    needs_injection: false\n"))
          .empty());
}

TEST(ScenarioRules, OtherFieldsAreChecked) {
  EXPECT_EQ(errors_of(one_scenario("    action: replace\n"
                                   "    multipart_only: sometimes\n"
                                   "    shapes: []\n"
                                   "    rules: reset\n")),
            (texts{"t.yaml:4: scenario 1 (s): action: must be one of none, "
                   "replace-after-first-read, overwrite (got \"replace\"; nearest: "
                   "replace-after-first-read)",
                   "t.yaml:5: scenario 1 (s): multipart_only: must be true or false (got "
                   "\"sometimes\")",
                   "t.yaml:6: scenario 1 (s): shapes: must be a list of shape names or globs "
                   "like [\"mp-*\"] (got [])",
                   "t.yaml:7: scenario 1 (s): rules: must be a list of rules (got \"reset\")"}))
      << "in the order of the lines";
}

TEST(RunRulesDocument, EveryRuleIsLimitedToTheRunsKey) {
  const scenario s = read_good(one_scenario("    rules:\n"
                                            "      - truncate 50% mode=close op=GetObject\n"
                                            "      - {actions: [reset]}\n"))
                         .scenarios.at(0);
  const json document = run_rules_document(s, "gate/run-7/mp-8MiB+1", 42);
  EXPECT_EQ(document["seed"], 42);
  ASSERT_EQ(document["rules"].size(), 2u);
  for (const auto& rule : document["rules"]) {
    EXPECT_EQ(rule["match"]["key"], "gate/run-7/mp-8MiB+1") << rule;
  }
  EXPECT_EQ(document["rules"][0]["match"]["operations"], json::array({"GetObject"}));
  EXPECT_TRUE(s.rules[1].find("match") == s.rules[1].end()) << "the scenario is not changed";

  const auto built = faults::config::parse_rule_document(document, "run");
  ASSERT_TRUE(built.ok()) << built.errors.front();
  EXPECT_EQ(built.seed, 42u);
  ASSERT_EQ(built.rules.size(), 2u);
  EXPECT_EQ(built.rules[0].match.key, "gate/run-7/mp-8MiB+1");
  EXPECT_EQ(built.rules[1].match.key, "gate/run-7/mp-8MiB+1");
}

TEST(RunRulesDocument, AKeyWithGlobCharactersMatchesOnlyItself) {
  const scenario s = read_good(one_scenario("    rules: [reset]\n")).scenarios.at(0);
  const std::string key = "odd/*?[key]";
  const auto built = faults::config::parse_rule_document(run_rules_document(s, key, 1));
  ASSERT_TRUE(built.ok()) << built.errors.front();
  EXPECT_TRUE(faults::glob_matches(built.rules.at(0).match.key, key));
  EXPECT_FALSE(faults::glob_matches(built.rules.at(0).match.key, "odd/x?[key]"));
  EXPECT_FALSE(faults::glob_matches(built.rules.at(0).match.key, "odd/*x[key]"));
  EXPECT_FALSE(faults::glob_matches(built.rules.at(0).match.key, "odd/*?k"));
}

} // namespace
} // namespace s3fault::gate
