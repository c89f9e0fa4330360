// Reading matrix files: a good file becomes the right structs; every mistake is reported with its
// file, line, entry and field, all of them at once.
#include "conformance/gate/gate_matrix.hpp"

#include "matrix_test_support.hpp"

#include <gtest/gtest.h>

#include <regex>
#include <string>
#include <vector>

namespace s3fault::gate {
namespace {

using nlohmann::json;
using testing::errors_of;
using testing::one_scenario;
using testing::one_shape;
using testing::read_good;
using texts = std::vector<std::string>;

constexpr std::uint64_t mib = 1024 * 1024;

constexpr std::string_view good_file = R"(scenarios:
  - name: cut-part-2
    description: part 2 cut at half
    why: part reads must add up
    expect: must-not-corrupt
    rules:
      - truncate 50% mode=consistent op=GetObject part=2
      - {name: reset-heads, actions: [reset], match: {operations: [HeadObject]}}
    shapes: ["mp-*"]
    multipart_only: true
  - name: replaced
    description: the object replaced after the first GET
    action: replace-after-first-read
    needs_injection: false
shapes:
  - name: mp-12MiB-5-5-2
    description: 12 MiB in 5/5/2 MiB parts
    size: 12MiB
    parts: [5MiB, 5MiB, 2MiB]
    checksum: sha256
    content_type: application/x-parquet
  - name: tiny
    description: 7 bytes
    size: 7
)";

TEST(ReadMatrix, GoodFileBecomesTheRightScenarios) {
  const gate_matrix matrix = read_good(good_file);
  ASSERT_EQ(matrix.scenarios.size(), 2u);
  const scenario& cut = matrix.scenarios[0];
  EXPECT_EQ(cut.name, "cut-part-2");
  EXPECT_EQ(cut.description, "part 2 cut at half");
  EXPECT_EQ(cut.why, "part reads must add up");
  EXPECT_EQ(cut.expect, expectation::must_not_corrupt);
  ASSERT_EQ(cut.rules.size(), 2u);
  EXPECT_EQ(cut.rules[0]["actions"][0]["type"], "truncate");
  EXPECT_EQ(cut.rules[0]["match"]["part"], 2);
  EXPECT_EQ(cut.rules[1]["name"], "reset-heads");
  EXPECT_EQ(cut.rules_text, (texts{"truncate 50% mode=consistent op=GetObject part=2",
                                   R"({"actions":["reset"],"match":{"operations":["HeadObject"]},)"
                                   R"("name":"reset-heads"})"}));
  EXPECT_EQ(cut.shape_globs, (texts{"mp-*"}));
  EXPECT_TRUE(cut.multipart_only);
  EXPECT_TRUE(cut.needs_injection) << "the default with rules";
  EXPECT_EQ(cut.action, scenario_action::none);
  EXPECT_EQ(cut.origin, "t.yaml:2");
}

TEST(ReadMatrix, AScenarioMayStateItsOwnTimeout) {
  const scenario silent =
      read_good("scenarios:\n  - {name: s, description: d, timeout: 90s, rules: [hang]}\n")
          .scenarios.at(0);
  EXPECT_EQ(silent.timeout, std::chrono::milliseconds(90000));
  EXPECT_FALSE(read_good(good_file).scenarios.at(0).timeout) << "the gate's --timeout";
  EXPECT_EQ(errors_of(one_scenario("    timeout: 500ms\n")),
            (texts{"t.yaml:4: scenario 1 (s): timeout: must be a duration of at least 1s, like "
                   "\"90s\" or \"2m\" (got \"500ms\")"}));
  EXPECT_EQ(errors_of(one_scenario("    timeout: soon\n")),
            (texts{"t.yaml:4: scenario 1 (s): timeout: must be a duration of at least 1s, like "
                   "\"90s\" or \"2m\" (got \"soon\")"}));
}

TEST(ReadMatrix, DefaultsOfAScenarioWithoutRules) {
  const scenario replaced = read_good(good_file).scenarios.at(1);
  EXPECT_EQ(replaced.expect, expectation::must_recover);
  EXPECT_TRUE(replaced.rules.empty());
  EXPECT_EQ(replaced.shape_globs, (texts{"*"}));
  EXPECT_FALSE(replaced.multipart_only);
  EXPECT_FALSE(replaced.needs_injection);
  EXPECT_EQ(replaced.action, scenario_action::replace_after_first_read);
  EXPECT_EQ(replaced.origin, "t.yaml:11");
  const scenario baseline =
      read_good("scenarios:\n  - {name: b, description: no fault}\n").scenarios.at(0);
  EXPECT_FALSE(baseline.needs_injection) << "the default without rules";
  const scenario overwrite =
      read_good("scenarios:\n  - {name: o, description: d, action: overwrite}\n").scenarios.at(0);
  EXPECT_EQ(overwrite.action, scenario_action::overwrite);
  EXPECT_TRUE(action_fits(overwrite.action, true));
  EXPECT_FALSE(action_fits(overwrite.action, false));
  EXPECT_FALSE(action_fits(replaced.action, true));
}

TEST(ReadMatrix, GoodFileBecomesTheRightShapes) {
  const gate_matrix matrix = read_good(good_file);
  ASSERT_EQ(matrix.shapes.size(), 2u);
  const object_shape& mp = matrix.shapes[0];
  EXPECT_EQ(mp.name, "mp-12MiB-5-5-2");
  EXPECT_EQ(mp.description, "12 MiB in 5/5/2 MiB parts");
  EXPECT_EQ(mp.size, 12 * mib);
  EXPECT_EQ(mp.part_sizes, (std::vector<std::uint64_t>{5 * mib, 5 * mib, 2 * mib}));
  EXPECT_TRUE(mp.multipart());
  EXPECT_EQ(mp.checksum, "sha256");
  EXPECT_EQ(mp.content_type, "application/x-parquet");
  EXPECT_EQ(mp.origin, "t.yaml:16");
  const object_shape& tiny = matrix.shapes[1];
  EXPECT_EQ(tiny.size, 7u);
  EXPECT_FALSE(tiny.multipart());
  EXPECT_EQ(tiny.checksum, "crc32") << "the default";
  EXPECT_EQ(tiny.content_type, "");
}

TEST(ReadMatrix, BothListsAreOptional) {
  EXPECT_TRUE(read_good("shapes: []\n").scenarios.empty());
  EXPECT_TRUE(read_good("scenarios:\n").shapes.empty());
}

TEST(ReadMatrix, ThreeMistakesAreAllReportedWithTheirLines) {
  const auto errors = errors_of(R"(scenarios:
  - name: a
    description: x
    expect: maybe
    rules:
      - truncate 50% mode=sideways op=GetObject
shapes:
  - name: s
    description: y
    size: 12MiB
    parts: [5MiB, 5MiB]
)");
  ASSERT_EQ(errors.size(), 3u) << ::testing::PrintToString(errors);
  EXPECT_EQ(errors[0], "t.yaml:4: scenario 1 (a): expect: must be one of must-recover, "
                       "must-not-corrupt, informational (got \"maybe\")");
  const std::string rule_place = "t.yaml:6: scenario 1 (a): rules[1]: truncate.mode: ";
  EXPECT_EQ(errors[1].substr(0, rule_place.size()), rule_place);
  EXPECT_NE(errors[1].find("sideways"), std::string::npos);
  EXPECT_EQ(errors[2], "t.yaml:11: shape 1 (s): parts: add up to 10485760 bytes, but size is "
                       "12582912");
}

TEST(ReadMatrix, MissingRequiredFieldsAreNamed) {
  EXPECT_EQ(errors_of("scenarios:\n  - why: w\n"),
            (texts{"t.yaml:2: scenario 1: name: missing (a name of letters, digits, '.', "
                   "'_', '+' or '-')",
                   "t.yaml:2: scenario 1: description: missing (a one-line description)"}));
  EXPECT_EQ(errors_of("shapes:\n  - name: s\n"),
            (texts{"t.yaml:2: shape 1 (s): description: missing (a one-line description)",
                   "t.yaml:2: shape 1 (s): size: missing (a size in bytes like 8388609, "
                   "or like 12MiB)"}));
}

TEST(ReadMatrix, UnknownFieldsNameTheAllowedOnes) {
  EXPECT_EQ(
      errors_of(one_scenario("    expects: must-recover\n")),
      (texts{"t.yaml:4: scenario 1 (s): expects: unknown field (nearest: expect; allowed: name, "
             "description, why, expect, rules, shapes, multipart_only, "
             "needs_injection, action, timeout)"}));
  EXPECT_EQ(errors_of(one_shape("    size: 1\n    part: [1]\n")),
            (texts{"t.yaml:5: shape 1 (s): part: unknown field (nearest: parts; allowed: name, "
                   "description, size, parts, checksum, content_type)"}));
  EXPECT_EQ(
      errors_of("scenario: []\n"),
      (texts{"t.yaml:1: scenario: unknown key (nearest: scenarios; allowed: scenarios, shapes)"}));
}

TEST(ReadMatrix, DuplicateNamesWithinAFileNameBothLines) {
  EXPECT_EQ(errors_of(R"(scenarios:
  - {name: a, description: one}
  - {name: b, description: two}
  - {name: a, description: three}
shapes:
  - {name: s, description: one, size: 1}
  - {name: s, description: two, size: 2}
)"),
            (texts{"t.yaml:4: scenario 3 (a): name: already used by scenario 1 at t.yaml:2",
                   "t.yaml:7: shape 2 (s): name: already used by shape 1 at t.yaml:6"}));
}

TEST(ReadMatrix, SyntaxErrorGivesLineAndColumn) {
  const auto errors = errors_of("scenarios:\n  - name: a\n    description: [unclosed\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_TRUE(std::regex_match(errors[0], std::regex(R"(t\.yaml:[0-9]+:[0-9]+: .+)"))) << errors[0];
  EXPECT_EQ(errors_of("shapes: []\nshapes: []\n"), (texts{"t.yaml:2:1: key 'shapes' given twice"}));
}

TEST(ReadMatrix, TheTopLevelMustBeAMappingOfLists) {
  EXPECT_EQ(errors_of(""), (texts{"t.yaml: empty (expected \"scenarios:\" and/or \"shapes:\")"}));
  EXPECT_EQ(errors_of("- a\n"), (texts{"t.yaml:1: must be a mapping with \"scenarios\" "
                                       "and/or \"shapes\" (got [\"a\"])"}));
  EXPECT_EQ(errors_of("shapes: empty\n"),
            (texts{"t.yaml:1: shapes: must be a list (got \"empty\")"}));
  EXPECT_EQ(errors_of("shapes:\n  - just-a-name\n"),
            (texts{"t.yaml:2: shape 1: must be a mapping with name, description and size "
                   "(got \"just-a-name\")"}));
}

TEST(ReadMatrix, NamesUseTheirCharset) {
  EXPECT_EQ(errors_of("shapes:\n  - {name: 'a b', description: d, size: 1}\n"),
            (texts{"t.yaml:2: shape 1 (a b): name: must be letters, digits, '.', '_', '+' "
                   "or '-' (got \"a b\")"}));
  EXPECT_EQ(
      read_good("shapes:\n  - {name: mp-8MiB+1_v2.0, description: d, size: 1}\n").shapes.at(0).name,
      "mp-8MiB+1_v2.0");
}

} // namespace
} // namespace s3fault::gate

namespace s3fault::gate {
namespace {

using texts = std::vector<std::string>;

/// Every kind of mistake a scenario file can hold, the action of the other role among them: all
/// found in one pass, each on the line of its own field.
constexpr std::string_view mistakes_of_every_kind = R"(scenarios:
  - name: ours-slow
    description: d
    expect: must-not-corupt
    action: replace-after-first-read
    rules:
      - name: r
        match:
          operations: [GetObjekt]
        actions: [reset]
      - truncate 50% mode=clse op=GetObject
  - name: ours-slow
    description: d2
    shapes: ["nothing-*"]
shapes:
  - name: ours-12MiB
    description: d
    size: 12MiB
    parts: [5MiB, 5MiB, 1MiB]
)";

TEST(ReadMatrixMistakes, EveryKindIsListedAtOnceOnTheLineOfItsField) {
  std::vector<std::string> errors;
  read_matrix_text(mistakes_of_every_kind, "t.yaml", {run_role::writer, texts{"1KiB", "8MiB-1"}},
                   errors);
  const std::vector<std::string> starts = {
      "t.yaml:4: scenario 1 (ours-slow): expect: must be one of must-recover, must-not-corrupt, "
      "informational (got \"must-not-corupt\"; nearest: must-not-corrupt)",
      "t.yaml:5: scenario 1 (ours-slow): action replace-after-first-read is for readers; this "
      "gate runs a writer",
      "t.yaml:9: scenario 1 (ours-slow): rules[1]: match.operations: unknown operation "
      "'GetObjekt' (nearest: GetObject",
      "t.yaml:11: scenario 1 (ours-slow): rules[2]: truncate.mode: ",
      "t.yaml:12: scenario 2 (ours-slow): name: already used by scenario 1 at t.yaml:2",
      "t.yaml:14: scenario 2 (ours-slow): shapes[1]: no shape matches 'nothing-*' (shapes: "
      "1KiB, 8MiB-1, ours-12MiB)",
      "t.yaml:19: shape 1 (ours-12MiB): parts: add up to 11534336 bytes, but size is 12582912"};
  ASSERT_EQ(errors.size(), starts.size()) << ::testing::PrintToString(errors);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    EXPECT_EQ(errors[i].substr(0, starts[i].size()), starts[i]) << errors[i];
  }
}

TEST(ReadMatrixMistakes, AnActionOfTheGatesRoleIsNoMistake) {
  std::vector<std::string> errors;
  read_matrix_text("scenarios:\n  - {name: o, description: d, action: overwrite, "
                   "needs_injection: false}\n",
                   "t.yaml", {run_role::writer, std::nullopt}, errors);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  read_matrix_text("scenarios:\n  - {name: o, description: d, action: overwrite, "
                   "needs_injection: false}\n",
                   "t.yaml", {run_role::reader, std::nullopt}, errors);
  EXPECT_EQ(errors, (texts{"t.yaml:2: scenario 1 (o): action overwrite is for writers; this "
                           "gate runs a reader"}));
}

TEST(ReadMatrixMistakes, RuleFieldsNameTheirOwnLine) {
  const auto errors = testing::errors_of(testing::one_scenario("    rules:\n"
                                                               "      - name: r\n"
                                                               "        schedule:\n"
                                                               "          every: 0\n"
                                                               "        actions:\n"
                                                               "          - truncate: 50%\n"
                                                               "            mode: clse\n"));
  ASSERT_EQ(errors.size(), 2u) << ::testing::PrintToString(errors);
  EXPECT_EQ(errors[0], "t.yaml:7: scenario 1 (s): rules[1]: schedule.every: must be a whole "
                       "number >= 1 (got 0)");
  EXPECT_EQ(errors[1].substr(0, 47), "t.yaml:10: scenario 1 (s): rules[1]: truncate.m")
      << errors[1];
}

TEST(ReadMatrixMistakes, UnknownNamesComeWithTheNearest) {
  EXPECT_EQ(testing::errors_of(testing::one_scenario("    expcet: must-recover\n")),
            (texts{"t.yaml:4: scenario 1 (s): expcet: unknown field (nearest: expect; allowed: "
                   "name, description, why, expect, rules, shapes, multipart_only, "
                   "needs_injection, action, timeout)"}));
  EXPECT_EQ(testing::errors_of(testing::one_shape("    size: 1\n    chcksum: crc32\n")),
            (texts{"t.yaml:5: shape 1 (s): chcksum: unknown field (nearest: checksum; allowed: "
                   "name, description, size, parts, checksum, content_type)"}));
  EXPECT_EQ(testing::errors_of("scenario:\n  - {name: s, description: d}\n"),
            (texts{"t.yaml:1: scenario: unknown key (nearest: scenarios; allowed: scenarios, "
                   "shapes)"}));
  EXPECT_EQ(testing::errors_of(testing::one_shape("    size: 1\n    checksum: crc23\n")),
            (texts{"t.yaml:5: shape 1 (s): checksum: must be one of crc32, crc32c, sha1, sha256, "
                   "none (got \"crc23\"; nearest: crc32, crc32c)"}));
  EXPECT_EQ(testing::errors_of(testing::one_scenario("    action: overwrit\n")),
            (texts{"t.yaml:4: scenario 1 (s): action: must be one of none, "
                   "replace-after-first-read, overwrite (got \"overwrit\"; nearest: overwrite)"}));
}

TEST(ReadMatrixMistakes, AShapeGlobThatMatchesNoShapeIsRefusedWithTheNearest) {
  const std::string file = "scenarios:\n"
                           "  - name: s\n"
                           "    description: d\n"
                           "    shapes: [\"ours-*\", \"mp-12MB\", \"tiny\"]\n"
                           "shapes:\n"
                           "  - {name: tiny, description: d, size: 1}\n";
  std::vector<std::string> errors;
  read_matrix_text(file, "t.yaml", {std::nullopt, texts{"mp-12MiB", "1KiB"}}, errors);
  EXPECT_EQ(errors, (texts{"t.yaml:4: scenario 1 (s): shapes[1]: no shape matches 'ours-*' "
                           "(shapes: mp-12MiB, 1KiB, tiny)",
                           "t.yaml:4: scenario 1 (s): shapes[2]: no shape matches 'mp-12MB' "
                           "(nearest: mp-12MiB; shapes: mp-12MiB, 1KiB, tiny)"}));
}

} // namespace
} // namespace s3fault::gate
