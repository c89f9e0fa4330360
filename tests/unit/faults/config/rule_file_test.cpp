// Rules files: YAML and JSON, typed scalars, file and line in messages, and the acceptance
// criterion "a rules file with three mistakes is rejected with all three named".
#include "faults/config/rule_file.hpp"

#include "config_test_support.hpp"
#include "faults/config/build_rules.hpp"

#include "tests/support/temp_file.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace s3fault::faults::config {
namespace {

using nlohmann::json;

using s3fault::testing::temp_file;

json yaml(std::string_view text) {
  std::string error;
  auto document = yaml_to_json(text, error);
  EXPECT_TRUE(error.empty()) << error;
  return document.value_or(json());
}

TEST(yaml_to_json, plain_scalars_are_typed_quoted_ones_stay_text) {
  EXPECT_EQ(yaml(R"(
int: 42
negative: -7
float: 0.25
exp: 1e3
bool: true
Bool: False
size: 1MiB
percent: 50%
quoted: "42"
single: '0.5'
tagged: !!str 7
empty:
tilde: ~
list: [1, a, "2"]
glob: "*.parquet"
)"),
            json::parse(R"({"int": 42, "negative": -7, "float": 0.25, "exp": 1000.0,
                            "bool": true, "Bool": false, "size": "1MiB", "percent": "50%",
                            "quoted": "42", "single": "0.5", "tagged": "7", "empty": null,
                            "tilde": null, "list": [1, "a", "2"], "glob": "*.parquet"})"));
}

TEST(yaml_to_json, syntax_errors_and_repeated_keys_name_the_line) {
  std::string error;
  EXPECT_FALSE(yaml_to_json("a: 1\nb: [1, 2\n", error).has_value());
  EXPECT_EQ(error.substr(0, 2), "3:"); // yaml-cpp finds the open list at the end
  error.clear();
  EXPECT_FALSE(yaml_to_json("a: 1\nb: 2\na: 3\n", error).has_value());
  EXPECT_EQ(error, "3:1: key 'a' given twice");
}

// Found by fuzz_rule_file: yaml-cpp 0.7 loops without end (and without bound on memory) on
// some text holding control characters, so such text is refused before it is parsed.
TEST(yaml_to_json, control_characters_and_bad_utf8_are_refused_with_their_place) {
  std::string error;
  EXPECT_FALSE(yaml_to_json(std::string("a: 1\nb: [x\0y]\n", 14), error).has_value());
  EXPECT_EQ(error, "2:6: byte 0x00 is not allowed in YAML (control characters and bytes that "
                   "are not UTF-8 are refused)");
  error.clear();
  EXPECT_FALSE(yaml_to_json("name: \xb5\n", error).has_value());
  EXPECT_EQ(error.substr(0, 20), "1:7: byte 0xB5 is no");
  error.clear();
  EXPECT_FALSE(yaml_to_json("a: \x7f", error).has_value());
  EXPECT_EQ(error.substr(0, 19), "1:4: byte 0x7F is n");
  error.clear();
  // Tabs, CR LF and real UTF-8 are fine.
  const auto fine = yaml_to_json("a:\t\"\xc2\xb5s \xe2\x82\xac \xf0\x9f\x90\xa2\"\r\n", error);
  ASSERT_TRUE(fine.has_value()) << error;
  EXPECT_EQ((*fine)["a"], "\xc2\xb5s \xe2\x82\xac \xf0\x9f\x90\xa2");
}

// Found by fuzz_rule_file: yaml-cpp's LoadAll never returns on a document starting with ','.
TEST(rule_file, a_document_starting_with_a_comma_ends_in_an_error) {
  s3fault::faults::error_list errors;
  read_rule_text(",,,,,,,,fter its first #", "comma.yaml", errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].substr(0, 11), "comma.yaml:");
}

// Found by fuzz_rule_file: nlohmann-json throws out_of_range, not parse_error, for a number
// too large for a double.
TEST(rule_file, a_json_number_too_large_is_an_error) {
  s3fault::faults::error_list errors;
  read_rule_text(R"({"seed": 2e2222, "rules": []})", "big.json", errors);
  EXPECT_EQ(errors, s3fault::faults::error_list{"big.json: number overflow parsing '2e2222'"});
}

TEST(rule_file, documents_are_counted_by_their_markers) {
  for (const char* text :
       {"--- \nrules: []\n...\nrules: []\n", "# c\nrules: []\n--- #x\nrules: []\n",
        "%YAML 1.2\n---\nrules: []\n---\nrules: []\n"}) {
    s3fault::faults::error_list errors;
    read_rule_text(text, "two.yaml", errors);
    EXPECT_EQ(errors,
              s3fault::faults::error_list{
                  "two.yaml: holds 2 YAML documents; put every rule in one \"rules\" list"})
        << text;
  }
  s3fault::faults::error_list errors;
  const auto one = read_rule_text("%YAML 1.2\n--- # only one\nrules:\n  - actions: reset\n...\n",
                                  "one.yaml", errors);
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_EQ(one.entries.size(), 1u);
}

TEST(rule_file, a_file_with_a_nul_byte_is_refused_with_its_place) {
  s3fault::faults::error_list errors;
  read_rule_text(std::string("rules:\n  - actions: \"reset\0\"\n", 29), "bad.yaml", errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].substr(0, 39), "bad.yaml:2:20: byte 0x00 is not allowed");
}

// Three mistakes in three rules, one per rule: all three named, with file, line and rule.
constexpr std::string_view three_mistakes_yaml = R"(# three mistakes
seed: 7
rules:
  - name: strip-parts-count
    match:
      operations: [GetObject, HeadObjekt]
    actions:
      - strip-header: x-amz-mp-parts-count

  - name: slowdown
    schedule: {every: 0}
    actions: ["error SlowDown"]

  - name: short-body
    actions:
      - truncate: 150%
        mode: consistent
)";

TEST(rule_file, a_yaml_file_with_three_mistakes_is_rejected_with_all_three_named) {
  const temp_file file("rules.yaml", three_mistakes_yaml);
  const auto build = build_rules({}, {file.path()}, {});
  ASSERT_EQ(build.errors.size(), 3u) << ::testing::PrintToString(build.errors);
  const std::string& f = file.path();
  EXPECT_EQ(build.errors[0], f +
                                 ":6: rule 1 (strip-parts-count): match.operations: unknown "
                                 "operation 'HeadObjekt' (nearest: HeadObject; " +
                                 testing::operations_hint() + ")");
  EXPECT_EQ(build.errors[1],
            f + ":11: rule 2 (slowdown): schedule.every: must be a whole number >= 1 (got 0)");
  EXPECT_EQ(build.errors[2], f + ":16: rule 3 (short-body): truncate.at: must be a size like "
                                 "1MiB or a fraction like 50% (got \"150%\")");
  EXPECT_TRUE(build.rules.empty());
}

TEST(rule_file, a_json_file_with_three_mistakes_is_rejected_with_all_three_named) {
  const temp_file file("rules.json", R"({
  "seed": 7,
  "rules": [
    {"name": "strip-parts-count", "match": {"part": 0},
     "actions": [{"strip-header": "x-amz-mp-parts-count"}]},
    {"name": "slowdown", "schedule": {"probability": 2}, "actions": ["error SlowDown"]},
    {"name": "short-body", "actions": [{"type": "truncate", "at": "50%", "mod": "consistent"}]}
  ]
})");
  const auto build = build_rules({}, {file.path()}, {});
  const std::string& f = file.path();
  EXPECT_EQ(build.errors,
            (error_list{f + ": rule 1 (strip-parts-count): match.part: must be a part number "
                            "1..10000 or a range like \"1-3\" (got 0)",
                        f + ": rule 2 (slowdown): schedule.probability: must be a fraction like "
                            "50% (got 2)",
                        f + ": rule 3 (short-body): truncate.mod: unknown parameter (nearest: "
                            "mode; truncate takes at, mode)"}));
}

TEST(rule_file, good_yaml_and_json_files_give_the_same_rules) {
  const temp_file yaml_file("rules.yml", R"(
seed: 99
rules:
  - name: short
    match: {operations: GetObject, part: 1-3}
    schedule: {probability: 25%, per_key: true}
    actions:
      - truncate 50% mode=consistent
)");
  const temp_file json_file("rules.txt", R"({"seed": 99, "rules": [
    {"name": "short", "match": {"operations": ["GetObject"], "part": "1-3"},
     "schedule": {"probability": 0.25, "per_key": true},
     "actions": [{"type": "truncate", "at": "50%", "mode": "consistent"}]}]})");
  const auto from_yaml = build_rules({}, {yaml_file.path()}, {});
  const auto from_json = build_rules({}, {json_file.path()}, {}); // JSON found by content
  ASSERT_TRUE(from_yaml.ok()) << ::testing::PrintToString(from_yaml.errors);
  ASSERT_TRUE(from_json.ok()) << ::testing::PrintToString(from_json.errors);
  EXPECT_EQ(from_yaml.seed, 99u);
  EXPECT_EQ(from_json.seed, 99u);
  ASSERT_EQ(from_yaml.rules.size(), 1u);
  EXPECT_EQ(from_yaml.rules[0].definition, from_json.rules[0].definition);
}

TEST(rule_file, file_level_mistakes_name_the_file_and_line) {
  error_list errors;
  read_rule_text("rules:\n  - name: a\n    actions: [reset\n", "bad.yaml", errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("bad.yaml:4:", 0), 0u) << errors[0];

  errors.clear();
  read_rule_text("{\"rules\": [\n  {\"actions\": [\"reset\"],}\n]}", "bad.json", errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("bad.json:2:", 0), 0u) << errors[0];
  EXPECT_EQ(errors[0].find("json.exception"), std::string::npos) << errors[0];

  errors.clear();
  read_rule_text("rules:\n  - match: {key: *.parquet}\n", "alias.yaml", errors);
  EXPECT_EQ(errors, error_list{"alias.yaml:2:18: the referenced anchor is not defined (a value "
                               "that starts with * must be quoted, like \"*.parquet\")"});

  errors.clear();
  read_rule_text("rules:\n  - actions: [reset]\n    actions: [hang]\n", "twice.yaml", errors);
  EXPECT_EQ(errors, error_list{"twice.yaml:3:5: key 'actions' given twice"});

  errors.clear();
  read_rule_text("rules: []\n---\nrules: []\n", "two.yaml", errors);
  EXPECT_EQ(errors,
            error_list{"two.yaml: holds 2 YAML documents; put every rule in one \"rules\" list"});

  errors.clear();
  read_rule_text("# nothing\n", "empty.yaml", errors);
  EXPECT_EQ(errors, error_list{"empty.yaml: empty (expected \"rules:\" with a list of rules)"});

  errors.clear();
  read_rule_text("rule:\n  - actions: [reset]\n", "typo.yaml", errors);
  EXPECT_EQ(
      errors,
      (error_list{"typo.yaml:1: rule: unknown key (nearest: rules; allowed: seed, rules, profile)",
                  "typo.yaml: rules: missing (a list of rules)"}));
}

TEST(rule_file, a_missing_file_is_an_error_among_the_others) {
  const auto build =
      build_rules({"delay 1s p=2"}, {"/nonexistent/s3fault/rules.yaml"}, {"no-such-preset"});
  ASSERT_EQ(build.errors.size(), 3u) << ::testing::PrintToString(build.errors);
  EXPECT_EQ(build.errors[0].rfind("--preset 1 ('no-such-preset'): unknown preset", 0), 0u);
  EXPECT_EQ(build.errors[1],
            "/nonexistent/s3fault/rules.yaml: cannot read (No such file or directory)");
  EXPECT_EQ(build.errors[2], "--fault 1 ('delay 1s p=2'): schedule.probability: must be a "
                             "fraction like 50% (got 2)");
}

TEST(rule_file, rules_without_a_line_are_named_by_the_file) {
  error_list errors;
  const auto document = read_rule_text(R"([{"actions": ["reset"]}])", "list.json", errors);
  ASSERT_TRUE(errors.empty());
  ASSERT_EQ(document.entries.size(), 1u);
  EXPECT_EQ(document.entries[0].origin, "list.json");
  EXPECT_EQ(document.entries[0].number, 1u);
}

// A mistake deep in a rule is named with the line of its own field, not the rule's first line.
TEST(rule_file, mistakes_name_the_line_of_their_field) {
  error_list errors;
  const auto document = read_rule_text(R"(rules:
  - name: slow
    actions: [reset]
    schedule: {every: 0}
  - name: cut
    match:
      operations: [GetObject]
      status: [999]
    actions:
      - truncate: 50%
        mode: clse
      - {type: delay, duration: 1s,
         jiter: 1ms}
)",
                                       "r.yaml", errors);
  ASSERT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  const auto build = parse_rules(document.entries);
  ASSERT_EQ(build.errors.size(), 4u) << ::testing::PrintToString(build.errors);
  EXPECT_EQ(build.errors[0],
            "r.yaml:4: rule 1 (slow): schedule.every: must be a whole number >= 1 (got 0)");
  EXPECT_EQ(build.errors[1].rfind("r.yaml:8: rule 2 (cut): match.status: ", 0), 0u)
      << build.errors[1];
  EXPECT_EQ(build.errors[2].rfind("r.yaml:11: rule 2 (cut): truncate.mode: ", 0), 0u)
      << build.errors[2];
  EXPECT_EQ(build.errors[3].rfind("r.yaml:13: rule 2 (cut): delay.jiter: unknown parameter", 0), 0u)
      << build.errors[3];
  ASSERT_EQ(document.entries.size(), 2u);
  EXPECT_EQ(document.entries[1].origin, "r.yaml:5") << "the rule itself is where it starts";
}

// The document's own keys are named with their lines too.
TEST(rule_file, document_mistakes_name_the_line_of_their_key) {
  error_list errors;
  read_rule_text("# rules\n\nseed: -1\nrules: []\nrule: []\n", "d.yaml", errors);
  EXPECT_EQ(errors, (error_list{"d.yaml:5: rule: unknown key (nearest: rules; allowed: seed, "
                                "rules, profile)",
                                "d.yaml:3: seed: must be a whole number >= 0 (got -1)"}));
}

} // namespace
} // namespace s3fault::faults::config
