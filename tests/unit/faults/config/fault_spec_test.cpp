// The one-line `--fault` syntax: tokens, the JSON it becomes, its mistakes, and that a spec and
// the same rule written in a file validate to the same definition.
#include "faults/config/fault_spec.hpp"

#include "config_test_support.hpp"
#include "faults/config/build_rules.hpp"
#include "faults/config/presets.hpp"
#include "faults/config/rule_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>

namespace s3fault::faults::config {
namespace {

using nlohmann::json;
using testing::known_actions;

json spec_json(std::string_view spec) {
  error_list errors;
  auto rule = fault_spec_to_json(spec, errors);
  EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  return rule.value_or(json());
}

error_list spec_errors(std::string_view spec) {
  error_list errors;
  EXPECT_FALSE(fault_spec_to_json(spec, errors).has_value());
  return errors;
}

TEST(tokenize_spec, splits_at_unquoted_blanks_and_keeps_quoted_text) {
  std::string error;
  const auto tokens =
      tokenize_spec(R"(set-header  x-note 'a b=c' name="my \"rule\"" q=partNumber=1)", error);
  ASSERT_TRUE(tokens.has_value()) << error;
  ASSERT_EQ(tokens->size(), 5u);
  EXPECT_EQ((*tokens)[0].value, "set-header");
  EXPECT_FALSE((*tokens)[0].has_key);
  EXPECT_EQ((*tokens)[2].value, "a b=c"); // '=' inside quotes is text
  EXPECT_FALSE((*tokens)[2].has_key);
  EXPECT_TRUE((*tokens)[2].quoted);
  EXPECT_EQ((*tokens)[3].key, "name");
  EXPECT_EQ((*tokens)[3].value, "my \"rule\"");
  EXPECT_EQ((*tokens)[3].text, R"(name="my \"rule\"")");
  EXPECT_EQ((*tokens)[4].key, "q");
  EXPECT_EQ((*tokens)[4].value, "partNumber=1"); // split at the first '=' only
}

TEST(tokenize_spec, typed_values_unless_quoted) {
  std::string error;
  const auto tokens = tokenize_spec("a=1 b='1' c=0.5 d=true e=1MiB f=-3", error);
  ASSERT_TRUE(tokens.has_value());
  EXPECT_EQ(token_value((*tokens)[0]), json(1));
  EXPECT_EQ(token_value((*tokens)[1]), json("1"));
  EXPECT_EQ(token_value((*tokens)[2]), json(0.5));
  EXPECT_EQ(token_value((*tokens)[3]), json(true));
  EXPECT_EQ(token_value((*tokens)[4]), json("1MiB"));
  EXPECT_EQ(token_value((*tokens)[5]), json(-3));
}

struct spec_case {
  const char* spec;
  const char* rule; // expected JSON
};

// The examples of the brief and docs/faults.md.
const spec_case spec_cases[] = {
    {"strip-header x-amz-mp-parts-count op=GetObject,HeadObject query=partNumber",
     R"({"match": {"operations": ["GetObject,HeadObject"], "query": ["partNumber"]},
         "actions": [{"type": "strip-header", "name": "x-amz-mp-parts-count"}]})"},
    {"error SlowDown op=GetObject first=2 per-key",
     R"({"match": {"operations": ["GetObject"]}, "schedule": {"first": 2, "per_key": true},
         "actions": [{"type": "error", "code": "SlowDown"}]})"},
    {"truncate 50% mode=consistent op=GetObject part=2",
     R"({"match": {"operations": ["GetObject"], "part": 2},
         "actions": [{"type": "truncate", "at": "50%", "mode": "consistent"}]})"},
    {"truncate 50% mode=consistent op=GetObject covers=12MiB",
     R"({"match": {"operations": ["GetObject"], "covers": "12MiB"},
         "actions": [{"type": "truncate", "at": "50%", "mode": "consistent"}]})"},
    {"delay 200ms jitter=50ms p=0.3",
     R"({"schedule": {"probability": 0.3},
         "actions": [{"type": "delay", "duration": "200ms", "jitter": "50ms"}]})"},
    {"set-header x-amz-mp-parts-count 1 op=GetObject query=partNumber=1",
     R"({"match": {"operations": ["GetObject"], "query": ["partNumber=1"]},
         "actions": [{"type": "set-header", "name": "x-amz-mp-parts-count", "value": 1}]})"},
    {"reset-after 1MiB key=*.parquet",
     R"({"match": {"key": "*.parquet"}, "actions": [{"type": "reset-after", "bytes": "1MiB"}]})"},
    {"truncate 1000 length-only",
     R"({"actions": [{"type": "truncate", "at": 1000, "mode": "length-only"}]})"},
    {"reset-after 50% op=GetObject",
     R"({"match": {"operations": ["GetObject"]},
         "actions": [{"type": "reset-after", "bytes": "50%"}]})"},
    {"hang name=stuck ops=GetObject op=HeadObject bucket=data-* method=GET header=range "
     "header='x-amz-checksum-mode~^ENABLED$' skip=1 every=2 times=3 after=1s until=1m disabled",
     R"({"name": "stuck", "enabled": false,
         "match": {"operations": ["GetObject", "HeadObject"], "bucket": "data-*",
                   "methods": ["GET"], "headers": ["range", "x-amz-checksum-mode~^ENABLED$"]},
         "schedule": {"skip": 1, "every": 2, "times": 3, "after": "1s", "until": "1m"},
         "actions": [{"type": "hang"}]})"},
    {"strip-header etag status=5xx status=404",
     R"({"match": {"status": ["5xx", 404]},
         "actions": [{"type": "strip-header", "name": "etag"}]})"},
    // A rule key wins over an action parameter of the same name; the action's own is reached by
    // position or as ACTION.PARAM, and match./schedule. reach any rule field.
    {"error InternalError error.status=503 error.message='try again' match.part=1-2",
     R"({"match": {"part": "1-2"},
         "actions": [{"type": "error", "code": "InternalError", "status": 503,
                      "message": "try again"}]})"},
    {"error SlowDown retry_after=2", // not a rule key: the action's parameter
     R"({"actions": [{"type": "error", "code": "SlowDown", "retry_after": 2}]})"},
    // Load-shaped schedules (RustFS's admission limit, S3's per-prefix rate).
    {"error SlowDown op=PutObject in-flight-over=4 min-body=64MiB",
     R"({"match": {"operations": ["PutObject"]},
         "schedule": {"in_flight_over": 4, "min_body": "64MiB"},
         "actions": [{"type": "error", "code": "SlowDown"}]})"},
    {"error SlowDown op=PutObject rate=3500 rate-per=prefix burst=100",
     R"({"match": {"operations": ["PutObject"]},
         "schedule": {"rate": 3500, "rate_per": "prefix", "burst": 100},
         "actions": [{"type": "error", "code": "SlowDown"}]})"},
    {"error SlowDown in_flight_over=2 rate_per=key rate=0.5 min_body=1",
     R"({"schedule": {"in_flight_over": 2, "rate_per": "key", "rate": 0.5, "min_body": 1},
         "actions": [{"type": "error", "code": "SlowDown"}]})"},
    // `rate` is a rule key now: throttle's byte rate goes by position or as throttle.rate.
    {"throttle throttle.rate=1MiB/s rate=2",
     R"({"schedule": {"rate": 2}, "actions": [{"type": "throttle", "rate": "1MiB/s"}]})"},
};

class spec_to_json : public ::testing::TestWithParam<spec_case> {};

TEST_P(spec_to_json, becomes_the_rule_json) {
  EXPECT_EQ(spec_json(GetParam().spec), json::parse(GetParam().rule));
}

INSTANTIATE_TEST_SUITE_P(examples, spec_to_json, ::testing::ValuesIn(spec_cases));

// Found by fuzz_fault_spec: `match.status=` set a string that a later `status=` could not add
// to, and the JSON library's exception ended the process.
TEST(fault_spec, long_and_short_forms_of_a_repeatable_key_add_up) {
  EXPECT_EQ(spec_json("error SlowDown match.status=5xx status=503"),
            json::parse(R"({"match": {"status": ["5xx", 503]},
                            "actions": [{"type": "error", "code": "SlowDown"}]})"));
  EXPECT_EQ(spec_json("error SlowDown op=GetObject match.operations=HeadObject"),
            json::parse(R"({"match": {"operations": ["GetObject", "HeadObject"]},
                            "actions": [{"type": "error", "code": "SlowDown"}]})"));
  const auto built = s3fault::faults::config::build_rules(
      {"set-header x-seen yes match.status=5xx status=503"}, {}, {});
  EXPECT_TRUE(built.ok()) << (built.errors.empty() ? "" : built.errors.front());
}

struct bad_spec {
  const char* spec;
  std::string error;
};

TEST(fault_spec, mistakes_name_the_token) {
  const std::vector<bad_spec> cases = {
      {"", "empty; expected ACTION [VALUE...] [key=value ...]"},
      {"   ", "empty; expected ACTION [VALUE...] [key=value ...]"},
      {"op=GetObject reset",
       "expected an action first (known: " + known_actions() + "), got 'op=GetObject'"},
      {"trunc 50%", "unknown action 'trunc' (nearest: truncate; known: " + known_actions() + ")"},
      {"strip-header a b", "unexpected value 'b': 'strip-header' takes 1 (name)"},
      {"reset now", "unexpected value 'now': 'reset' takes no positional values"},
      {"delay 1s name='x", "unterminated ' quote in 'name='x'"},
      {"delay 1s name=\"x", "unterminated \" quote in 'name=\"x'"},
      {"delay 1s first=1 first=2", "'first' given twice"},
      {"delay 1s p=0.1 probability=0.2", "'probability' given twice"},
      {"delay 1s op=", "'op=': missing value after '='"},
      {"delay 1s =x", "'=x': missing key before '='"},
      {"delay 1s jitter=1ms jitter=2ms", "'jitter' given twice"},
      {"delay 1s 2ms jitter=3ms", "'jitter' given twice"},
      {"reset frist=1",
       "unknown key 'frist' (nearest: first; allowed: name, enabled, op, method, bucket, key, "
       "query, header, status, part, covers, p, first, skip, every, times, per-key, "
       "after, until, in-flight-over, rate, burst, rate-per, min-body, "
       "disabled)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.spec);
    EXPECT_EQ(spec_errors(c.spec), error_list{c.error});
  }
}

TEST(fault_spec, every_mistake_of_a_spec_is_reported) {
  EXPECT_EQ(spec_errors("strip-header a b first=1 first=2 op="),
            (error_list{"unexpected value 'b': 'strip-header' takes 1 (name)",
                        "'first' given twice", "'op=': missing value after '='"}));
}

TEST(fault_spec, values_are_checked_like_any_rule_and_named_by_the_spec) {
  const auto build = build_rules(
      {"delay 1s p=1.5", "error SlowDown frist=2", "strip-header etag", "trunc 1"}, {}, {});
  EXPECT_EQ(
      build.errors,
      (error_list{
          // Mistakes in the specs themselves first, then the values of the rules.
          "--fault 2 ('error SlowDown frist=2'): unknown key 'frist' (nearest: first; "
          "allowed: name, "
          "enabled, op, method, bucket, key, query, header, status, part, covers, p, first, skip, "
          "every, times, per-key, after, until, in-flight-over, rate, burst, rate-per, "
          "min-body, disabled, code, message, retry_after)",
          "--fault 4 ('trunc 1'): unknown action 'trunc' (nearest: truncate; known: " +
              known_actions() + ")",
          "--fault 1 ('delay 1s p=1.5'): schedule.probability: must be a fraction like 50% "
          "(got 1.5)"}));
  EXPECT_TRUE(build.rules.empty());
}

TEST(action_spec, reads_actions_written_on_one_line) {
  error_list errors;
  EXPECT_EQ(action_spec_to_json("truncate 1MiB mode=close", errors),
            json::parse(R"({"type": "truncate", "at": "1MiB", "mode": "close"})"));
  EXPECT_TRUE(errors.empty());
  EXPECT_FALSE(action_spec_to_json("truncate 1MiB close extra", errors).has_value());
  EXPECT_EQ(errors, error_list{"unexpected value 'extra': 'truncate' takes 2 (at, mode)"});
  errors.clear();
  EXPECT_FALSE(action_spec_to_json("truncate 1MiB mod=close", errors).has_value());
  EXPECT_EQ(errors,
            error_list{"unknown parameter 'mod' of 'truncate' (nearest: mode; allowed: at, mode)"});
  errors.clear();
  EXPECT_FALSE(action_spec_to_json("reset op=GetObject", errors).has_value());
  EXPECT_EQ(errors, error_list{"unknown parameter 'op' of 'reset' (it takes none)"});
  errors.clear();
  EXPECT_EQ(action_spec_to_json("error SlowDown retry-after=1", errors), // '-' for '_'
            json::parse(R"({"type": "error", "code": "SlowDown", "retry_after": 1})"));
}

// The same rule as a --fault spec and as a rules file entry: equal definitions.
struct equivalence_case {
  const char* spec;
  const char* yaml; // a rules file with one rule
};

const equivalence_case equivalence_cases[] = {
    {"strip-header x-amz-mp-parts-count name=strip op=GetObject,HeadObject query=partNumber",
     R"(rules:
  - name: strip
    match:
      operations: [GetObject, HeadObject]
      query: {partNumber: "*"}
    actions:
      - strip-header: x-amz-mp-parts-count
)"},
    {"error SlowDown name=slow op=GetObject first=2 per-key",
     R"(rules:
  - name: slow
    match: {operations: GetObject}
    schedule: {first: 2, per_key: true}
    actions: [{type: error, code: SlowDown}]
)"},
    {"truncate 50% name=short mode=consistent op=GetObject part=2",
     R"(rules:
  - name: short
    match:
      operations: [GetObject]
      part: 2
    actions:
      - truncate: 50%
        mode: consistent
)"},
    {"delay 200ms name=slow jitter=50ms p=0.3",
     R"(rules:
  - name: slow
    schedule:
      probability: 30%
    actions: ["delay 200ms jitter=50ms"]
)"},
    {"set-header x-amz-mp-parts-count 1 name=low op=GetObject query=partNumber=1",
     R"(rules:
  - name: low
    match:
      operations: GetObject
      query:
        partNumber: 1
    actions:
      - set-header: [x-amz-mp-parts-count, "1"]
)"},
    {"reset-after 1MiB name=flaky key=*.parquet",
     R"(rules:
  - name: flaky
    match: {key: "*.parquet"}
    actions:
      - {type: reset-after, bytes: 1048576}
)"},
    {"error SlowDown name=rustfs op=PutObject in-flight-over=4 min-body=64MiB",
     R"(rules:
  - name: rustfs
    match: {operations: PutObject}
    schedule: {in_flight_over: 4, min_body: 67108864}
    actions: [{error: SlowDown}]
)"},
    {"error SlowDown name=aws op=PutObject rate=3500 rate-per=prefix",
     R"(rules:
  - name: aws
    match: {operations: PutObject}
    schedule:
      rate: 3500
      burst: 3500
      rate_per: prefix
    actions: [{error: SlowDown}]
)"},
};

class spec_and_file : public ::testing::TestWithParam<equivalence_case> {};

TEST_P(spec_and_file, give_the_same_definition) {
  const auto from_spec = build_rules({GetParam().spec}, {}, {});
  ASSERT_TRUE(from_spec.ok()) << ::testing::PrintToString(from_spec.errors);
  error_list errors;
  const auto document = read_rule_text(GetParam().yaml, "rules.yaml", errors);
  ASSERT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
  const auto from_file = parse_rules(document.entries);
  ASSERT_TRUE(from_file.ok()) << ::testing::PrintToString(from_file.errors);
  ASSERT_EQ(from_spec.rules.size(), 1u);
  ASSERT_EQ(from_file.rules.size(), 1u);
  EXPECT_EQ(from_spec.rules[0].definition, from_file.rules[0].definition);
}

INSTANTIATE_TEST_SUITE_P(examples, spec_and_file, ::testing::ValuesIn(equivalence_cases));

TEST(fault_spec, unknown_names_come_with_the_nearest) {
  error_list errors;
  fault_spec_to_json("truncat 50%", errors);
  EXPECT_EQ(errors, error_list{"unknown action 'truncat' (nearest: truncate; known: " +
                               known_actions() + ")"});
  errors.clear();
  fault_spec_to_json("truncate 50% mdoe=close", errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].rfind("unknown key 'mdoe' (nearest: mode; allowed: ", 0), 0u) << errors[0];
  errors.clear();
  action_spec_to_json("truncate 50% mdoe=close", errors);
  EXPECT_EQ(errors, error_list{"unknown parameter 'mdoe' of 'truncate' (nearest: mode; allowed: "
                               "at, mode)"});
}

} // namespace
} // namespace s3fault::faults::config

namespace s3fault::faults::config::round_trip {

/// Rules written back as one line and read again: the same definition, or no line at all.
std::size_t expect_round_trips(const rule_build& build, std::size_t& without_line) {
  EXPECT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  std::size_t checked = 0;
  for (const auto& r : build.rules) {
    const auto spec = fault_spec_of(r.definition);
    if (!spec) {
      ++without_line;
      EXPECT_NE(r.definition["actions"].size(), 1u)
          << "one action, yet no line: " << r.definition.dump();
      continue;
    }
    SCOPED_TRACE(*spec);
    // Read back under the rule's name, as PUT /rules/NAME and the page's edit do.
    const bool named = spec->find(" name=") != std::string::npos;
    const auto again = build_rules({named ? *spec : *spec + " name=" + spec_word(r.name)}, {}, {});
    EXPECT_TRUE(again.ok()) << ::testing::PrintToString(again.errors);
    if (again.rules.size() != 1u) {
      ADD_FAILURE() << "not one rule";
      continue;
    }
    EXPECT_EQ(again.rules[0].definition, r.definition);
    ++checked;
  }
  return checked;
}

TEST(fault_spec_of, every_preset_and_example_rule_reads_back_as_itself) {
  std::size_t checked = 0, without_line = 0;
  for (const auto& p : presets()) {
    SCOPED_TRACE(std::string(p.name));
    checked += expect_round_trips(build_rules({}, {}, {std::string(p.name)}), without_line);
  }
  const std::filesystem::path dir = std::filesystem::path(S3FAULT_SOURCE_DIR) / "examples/faults";
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() == ".yaml") {
      SCOPED_TRACE(entry.path().string());
      checked += expect_round_trips(build_rules({}, {entry.path().string()}, {}), without_line);
    }
  }
  EXPECT_GE(checked, 20u);
  std::cout << checked << " rules read back as themselves, " << without_line
            << " had several actions\n";
}

TEST(fault_spec_of, quotes_what_would_read_back_as_something_else) {
  const auto build =
      build_rules({"error SlowDown name=it.1 key=\"a b\" op=GetObject,HeadObject query=x=1 p=0.5 "
                   "header='range~^bytes=\\d'",
                   "strip-header strip-header.name=x-amz-mp-parts-count name=n2 disabled per-key"},
                  {}, {});
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  EXPECT_EQ(fault_spec_of(build.rules[0].definition),
            "error SlowDown name=it.1 header=\"range~^bytes=\\\\d\" key=\"a b\" "
            "op=GetObject op=HeadObject query=x=1 p=0.5");
  std::size_t without_line = 0;
  EXPECT_EQ(expect_round_trips(build, without_line), 2u);
}

TEST(fault_spec_of, writes_the_line_a_person_types) {
  const auto build = build_rules({"throttle 20MiB/s op=GetObject",
                                  "set-header x-amz-meta-a 'b c' op=GetObject name=meta",
                                  "set-header x-amz-meta-a 'per-key' op=GetObject name=flaglike",
                                  "error SlowDown op=GetObject first=2"},
                                 {}, {});
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  EXPECT_EQ(fault_spec_of(build.rules[0].definition), "throttle 20MiB/s op=GetObject");
  EXPECT_EQ(fault_spec_of(build.rules[1].definition),
            "set-header x-amz-meta-a \"b c\" name=meta op=GetObject");
  EXPECT_EQ(fault_spec_of(build.rules[2].definition),
            "set-header x-amz-meta-a \"per-key\" name=flaglike op=GetObject");
  EXPECT_EQ(fault_spec_of(build.rules[3].definition), "error SlowDown op=GetObject first=2");
  std::size_t without_line = 0;
  EXPECT_EQ(expect_round_trips(build, without_line), 4u);
}

TEST(fault_spec_of, says_nothing_for_several_actions_or_a_list_value) {
  EXPECT_EQ(fault_spec_of(json::parse(
                R"({"name":"x","actions":[{"type":"delay","ms":1},{"type":"delay","ms":2}]})")),
            std::nullopt);
  EXPECT_EQ(fault_spec_of(json::parse(R"({"actions":[{"type":"delay","ms":[1,2]}]})")),
            std::nullopt);
  EXPECT_EQ(fault_spec_of(json::parse(R"({"actions":[{"type":"no-such"}]})")), std::nullopt);
}

} // namespace s3fault::faults::config::round_trip
