// Rule validation: a table of good definitions with their normalized form and a table of bad
// ones, each with the exact messages it must produce.
#include "faults/config/rule_parser.hpp"

#include "config_test_support.hpp"

#include <gtest/gtest.h>

namespace s3fault::faults::config {
namespace {

using nlohmann::json;
using testing::build_one;
using testing::known_actions;
using testing::operations_hint;

struct good_case {
  const char* label;
  const char* rule;       // one rule definition, JSON
  const char* normalized; // its expected `definition`, JSON
};

// The same rule written several ways has one normalized definition.
const good_case good_cases[] = {
    {"minimal", R"({"actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true, "match": {}, "schedule": {},
         "actions": [{"type": "reset"}]})"},
    {"operations as comma text, any case",
     R"({"name": "strip", "match": {"operations": "getobject, HeadObject"},
         "actions": [{"strip-header": "x-amz-mp-parts-count"}]})",
     R"({"name": "strip", "enabled": true,
         "match": {"operations": ["GetObject", "HeadObject"]}, "schedule": {},
         "actions": [{"type": "strip-header", "name": "x-amz-mp-parts-count"}]})"},
    {"operations as a list, duplicates dropped",
     R"({"name": "strip", "match": {"operations": ["GetObject", "HeadObject,GetObject"]},
         "actions": [{"strip-header": "x-amz-mp-parts-count"}]})",
     R"({"name": "strip", "enabled": true,
         "match": {"operations": ["GetObject", "HeadObject"]}, "schedule": {},
         "actions": [{"type": "strip-header", "name": "x-amz-mp-parts-count"}]})"},
    {"methods upper-cased, default globs left out",
     R"({"match": {"methods": ["get", "head"], "bucket": "*", "key": "*.parquet"},
         "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true,
         "match": {"methods": ["GET", "HEAD"], "key": "*.parquet"}, "schedule": {},
         "actions": [{"type": "reset"}]})"},
    {"query as a map (numbers become text, null and * mean present)",
     R"({"match": {"query": {"partNumber": 1, "uploadId": "*", "versionId": null}},
         "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true,
         "match": {"query": {"partNumber": "1", "uploadId": "*", "versionId": "*"}},
         "schedule": {}, "actions": [{"type": "reset"}]})"},
    {"query as a list",
     R"({"match": {"query": ["partNumber=1", "uploadId", "versionId=*"]}, "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true,
         "match": {"query": {"partNumber": "1", "uploadId": "*", "versionId": "*"}},
         "schedule": {}, "actions": [{"type": "reset"}]})"},
    {"headers as a map and as a list (names lower-cased)",
     R"({"match": {"headers": ["Range", "x-amz-checksum-mode~^enabled$"]},
         "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true,
         "match": {"headers": {"range": "*", "x-amz-checksum-mode": "^enabled$"}},
         "schedule": {}, "actions": [{"type": "reset"}]})"},
    {"statuses and classes",
     R"({"match": {"status": [503, "5XX", "404"]}, "actions": ["strip-header etag"]})",
     R"({"name": "strip-header-1", "enabled": true, "match": {"status": [503, "5xx", 404]},
         "schedule": {}, "actions": [{"type": "strip-header", "name": "etag"}]})"},
    {"statuses as comma text",
     R"({"match": {"status": "500,503"}, "actions": ["strip-header etag"]})",
     R"({"name": "strip-header-1", "enabled": true, "match": {"status": [500, 503]},
         "schedule": {}, "actions": [{"type": "strip-header", "name": "etag"}]})"},
    {"head-as-get on a rule that may take a HEAD",
     R"({"match": {"operations": ["GetObject", "HeadObject"], "methods": ["GET", "HEAD"],
                   "headers": {"range": "*"}}, "actions": ["head-as-get"]})",
     R"({"name": "head-as-get-1", "enabled": true,
         "match": {"operations": ["GetObject", "HeadObject"], "methods": ["GET", "HEAD"],
                   "headers": {"range": "*"}},
         "schedule": {}, "actions": [{"type": "head-as-get"}]})"},
    {"one part as a number", R"({"match": {"part": 2}, "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true, "match": {"part": "2"}, "schedule": {},
         "actions": [{"type": "reset"}]})"},
    {"whole numbers written with .0 (YAML, JSON encoders) count, as everywhere",
     R"({"match": {"status": [503.0, "404"], "part": 2.0},
         "schedule": {"first": 5.0, "every": 2.0, "times": "3"},
         "actions": ["strip-header etag"]})",
     R"({"name": "strip-header-1", "enabled": true,
         "match": {"status": [503, 404], "part": "2"},
         "schedule": {"first": 5, "every": 2, "times": 3},
         "actions": [{"type": "strip-header", "name": "etag"}]})"},
    {"a byte offset to cover, as a size or a number",
     R"({"match": {"covers": "12MiB"}, "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true, "match": {"covers": 12582912}, "schedule": {},
         "actions": [{"type": "reset"}]})"},
    {"a byte offset 0", R"({"match": {"covers": 0}, "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true, "match": {"covers": 0}, "schedule": {},
         "actions": [{"type": "reset"}]})"},
    {"a part range", R"({"match": {"part": "1 - 3"}, "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true, "match": {"part": "1-3"}, "schedule": {},
         "actions": [{"type": "reset"}]})"},
    {"schedule with every key, defaults left out",
     R"({"schedule": {"probability": "30%", "first": 5, "skip": "2", "every": 2, "times": 3,
                      "per_key": true, "after": "1500ms", "until": 60}, "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true, "match": {},
         "schedule": {"probability": 0.3, "first": 5, "skip": 2, "every": 2, "times": 3,
                      "per_key": true, "after": "1500ms", "until": "60s"},
         "actions": [{"type": "reset"}]})"},
    {"schedule defaults given explicitly",
     R"({"schedule": {"probability": 1, "skip": 0, "per_key": false}, "enabled": "false",
         "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": false, "match": {}, "schedule": {},
         "actions": [{"type": "reset"}]})"},
    {"action with type",
     R"({"actions": [{"type": "truncate", "at": "50%", "mode": "consistent"}]})",
     R"({"name": "truncate-1", "enabled": true, "match": {}, "schedule": {},
         "actions": [{"type": "truncate", "at": "50%", "mode": "consistent"}]})"},
    {"short form with a positional value and a parameter beside it",
     R"({"actions": [{"truncate": "50%", "mode": "consistent"}]})",
     R"({"name": "truncate-1", "enabled": true, "match": {}, "schedule": {},
         "actions": [{"type": "truncate", "at": "50%", "mode": "consistent"}]})"},
    {"short form with a list of positional values",
     R"({"actions": [{"truncate": ["50%", "consistent"]}]})",
     R"({"name": "truncate-1", "enabled": true, "match": {}, "schedule": {},
         "actions": [{"type": "truncate", "at": "50%", "mode": "consistent"}]})"},
    {"short form with an object of parameters",
     R"({"actions": [{"truncate": {"at": "50%", "mode": "consistent"}}]})",
     R"({"name": "truncate-1", "enabled": true, "match": {}, "schedule": {},
         "actions": [{"type": "truncate", "at": "50%", "mode": "consistent"}]})"},
    {"one-line action", R"({"actions": ["truncate 50% mode=consistent"]})",
     R"({"name": "truncate-1", "enabled": true, "match": {}, "schedule": {},
         "actions": [{"type": "truncate", "at": "50%", "mode": "consistent"}]})"},
    {"a single action without a list, several actions in order",
     R"({"name": "two", "actions": [{"set-header": ["x-amz-mp-parts-count", 1]},
                                     "first-byte-delay 250ms"]})",
     R"({"name": "two", "enabled": true, "match": {}, "schedule": {},
         "actions": [{"type": "set-header", "name": "x-amz-mp-parts-count", "value": "1"},
                     {"type": "first-byte-delay", "duration": "250ms"}]})"},
    {"load schedule: in-flight admission for big bodies",
     R"({"schedule": {"in_flight_over": "4", "min_body": "64MiB"}, "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true, "match": {},
         "schedule": {"in_flight_over": 4, "min_body": 67108864},
         "actions": [{"type": "reset"}]})"},
    {"load schedule: a rate per prefix, the default burst and scope left out",
     R"({"schedule": {"rate": "3500/s", "burst": 3500, "rate_per": "prefix"},
         "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true, "match": {},
         "schedule": {"rate": 3500, "rate_per": "prefix"}, "actions": [{"type": "reset"}]})"},
    {"load schedule: a fractional rate with its own burst",
     R"({"schedule": {"rate": 0.5, "burst": "3", "rate_per": "rule", "min_body": 0},
         "actions": ["reset"]})",
     R"({"name": "reset-1", "enabled": true, "match": {},
         "schedule": {"rate": 0.5, "burst": 3}, "actions": [{"type": "reset"}]})"},
    {"load schedule: a rate may wait for a status",
     R"({"match": {"status": 200}, "schedule": {"rate": 10},
         "actions": ["set-status 503"]})",
     R"({"name": "set-status-1", "enabled": true, "match": {"status": [200]},
         "schedule": {"rate": 10}, "actions": [{"type": "set-status", "code": 503}]})"},
    {"actions as one entry", R"({"actions": "reset"})",
     R"({"name": "reset-1", "enabled": true, "match": {}, "schedule": {},
         "actions": [{"type": "reset"}]})"},
};

class good_rule : public ::testing::TestWithParam<good_case> {};

TEST_P(good_rule, validates_to_its_normalized_definition) {
  const auto build = build_one(GetParam().rule);
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  ASSERT_EQ(build.rules.size(), 1u);
  EXPECT_EQ(build.rules[0].definition, json::parse(GetParam().normalized));
  // The definition is itself a valid rule with the same definition (the admin API's round trip).
  const auto again = build_one(build.rules[0].definition.dump());
  ASSERT_TRUE(again.ok()) << ::testing::PrintToString(again.errors);
  EXPECT_EQ(again.rules[0].definition, build.rules[0].definition);
}

INSTANTIATE_TEST_SUITE_P(table, good_rule, ::testing::ValuesIn(good_cases));

struct bad_case {
  const char* label;
  const char* rule; // one rule definition, JSON
  std::vector<std::string> errors;
};

std::vector<bad_case> bad_cases() {
  const std::string actions = known_actions();
  return {
      {"not an object",
       "5",
       {"rule 1 (rule-1): must be a rule: an object with match, schedule and actions (got 5)"}},
      {"unknown key",
       R"({"actions": ["reset"], "shedule": {}})",
       {"rule 1 (reset-1): shedule: unknown key (nearest: schedule; allowed: name, enabled, match, "
        "schedule, "
        "actions, reproduces)"}},
      {"bad name",
       R"({"name": "a b", "actions": ["reset"]})",
       {"rule 1 (a b): name: must be 1 to 64 letters, digits, '.', '_' or '-', starting with a "
        "letter or digit (got \"a b\")"}},
      {"name not text",
       R"({"name": 5, "actions": ["reset"]})",
       {"rule 1 (reset-1): name: must be 1 to 64 letters, digits, '.', '_' or '-', starting with "
        "a letter or digit (got 5)"}},
      {"enabled",
       R"({"enabled": "maybe", "actions": ["reset"]})",
       {"rule 1 (reset-1): enabled: must be true or false (got \"maybe\")"}},
      {"no actions",
       R"({"match": {}})",
       {"rule 1 (rule-1): actions: missing (at least one action is required)"}},
      {"empty actions",
       R"({"actions": []})",
       {"rule 1 (rule-1): actions: at least one action is required"}},
      {"unknown one-line action",
       R"({"actions": ["trunc 50%"]})",
       {"rule 1 (rule-1): actions[1]: unknown action 'trunc' (nearest: truncate; known: " +
        actions + ")"}},
      {"unknown short-form action",
       R"({"actions": [{"trunc": "50%"}]})",
       {"rule 1 (rule-1): actions[1]: unknown action 'trunc' (nearest: truncate; known: " +
        actions + ")"}},
      {"unknown action type",
       R"({"actions": ["reset", {"type": "nope"}]})",
       {"rule 1 (reset-1): actions[2]: unknown action 'nope' (known: " + actions + ")"}},
      {"no type at all",
       R"({"actions": [{"at": "50%", "mode": "close"}]})",
       {"rule 1 (rule-1): actions[1]: needs \"type\" or an action name as key (known: " + actions +
        ")"}},
      {"two actions in one entry",
       R"({"actions": [{"delay": "1s", "error": "SlowDown"}]})",
       {"rule 1 (delay-1): actions[1]: names more than one action ('delay', 'error'): give each "
        "its own entry"}},
      {"too many positional values",
       R"({"actions": [{"strip-header": ["a", "b"]}]})",
       {"rule 1 (strip-header-1): actions[1]: 'strip-header' takes 1 positional value (name) "
        "(got [\"a\",\"b\"])"}},
      {"positional value for an action without",
       R"({"actions": [{"reset": "now"}]})",
       {"rule 1 (reset-1): actions[1]: 'reset' takes no positional values (got \"now\")"}},
      {"parameter given twice",
       R"({"actions": [{"truncate": "50%", "at": "10%"}]})",
       {"rule 1 (truncate-1): actions[1]: 'at' given twice"}},
      {"one-line action with a misspelt parameter",
       R"({"actions": ["truncate 50% mod=consistent"]})",
       {"rule 1 (truncate-1): actions[1]: unknown parameter 'mod' of 'truncate' (nearest: mode; "
        "allowed: at, "
        "mode)"}},
      {"action not readable",
       R"({"actions": [5]})",
       {"rule 1 (rule-1): actions[1]: must be an action: {type: ACTION, ...}, {ACTION: VALUE} or "
        "\"ACTION VALUE key=value\" (got 5)"}},
      {"action parameter, named by the action",
       R"({"actions": [{"truncate": "50%", "mode": "x"}]})",
       {"rule 1 (truncate-1): truncate.mode: must be one of close, consistent, length-only (got "
        "\"x\")"}},
      {"match not an object",
       R"({"match": "GetObject", "actions": ["reset"]})",
       {"rule 1 (reset-1): match: must be an object (got \"GetObject\")"}},
      {"match key misspelt",
       R"({"match": {"operation": "GetObject"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.operation: unknown key (nearest: operations; allowed: operations, "
        "methods, bucket, "
        "key, query, headers, status, part, covers)"}},
      {"unknown operation",
       R"({"match": {"operations": "GetObjekt"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.operations: unknown operation 'GetObjekt' (nearest: GetObject, "
        "PutObject, GetObjectAcl; " +
        operations_hint() + ")"}},
      {"empty operation",
       R"({"match": {"operations": "GetObject,"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.operations: must be operation names like GetObject, or @multipart "
        "(got "
        "\"GetObject,\")"}},
      {"operations as an object",
       R"({"match": {"operations": {"a": 1}}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.operations: must be operation names like GetObject, or @multipart "
        "(got "
        "{\"a\":1})"}},
      {"method",
       R"({"match": {"methods": "G T"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.methods: 'G T' is not an HTTP method"}},
      {"bucket glob",
       R"({"match": {"bucket": ["a"]}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.bucket: must be a glob like \"data-*\" (got [\"a\"])"}},
      {"query entry",
       R"({"match": {"query": [5]}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.query[1]: must be \"name\" or \"name=value\" (got 5)"}},
      {"query without a name",
       R"({"match": {"query": ["=1"]}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.query[1]: a query parameter needs a name"}},
      {"query given twice",
       R"({"match": {"query": ["partNumber", "partNumber=1"]},
                                "actions": ["reset"]})",
       {"rule 1 (reset-1): match.query: 'partNumber' given twice"}},
      {"query value",
       R"({"match": {"query": {"a": [1]}}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.query.a: must be a value, or \"*\" for any value (got [1])"}},
      {"bad regex",
       R"({"match": {"headers": {"range": "bytes=(0"}}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.headers.range: regex 'bytes=(0' is not valid RE2 syntax: "
        "missing ) at 'bytes=(0'"}},
      {"bad regex in a list",
       R"({"match": {"headers": ["etag~[a"]}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.headers.etag: regex '[a' is not valid RE2 syntax: missing ] at "
        "'[a'"}},
      {"escape RE2 does not know",
       R"({"match": {"headers": {"etag": "\\q"}}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.headers.etag: regex '\\q' is not valid RE2 syntax: invalid "
        "escape sequence at '\\q'"}},
      {"repetition count above RE2's 1000",
       R"({"match": {"headers": ["etag~x{2,1001}"]}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.headers.etag: regex 'x{2,1001}' is not valid RE2 syntax: "
        "invalid repetition size at '{2,1001}'"}},
      {"back-reference",
       R"({"match": {"headers": {"etag": "(a)\\1"}}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.headers.etag: regex '(a)\\1' holds the back-reference '\\1': "
        "back-references are not supported (RE2 syntax)"}},
      {"back-reference RE2 would read as octal",
       R"({"match": {"headers": ["etag~(a)(b)\\12"]}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.headers.etag: regex '(a)(b)\\12' holds the back-reference "
        "'\\12': back-references are not supported (RE2 syntax)"}},
      // Found by fuzz_fault_spec: libstdc++'s regex compiler overflowed on this number.
      {"huge back-reference",
       R"({"match": {"headers": {"etag": "(a)\\2222222222222222222"}}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.headers.etag: regex '(a)\\2222222222222222222' holds the "
        "back-reference '\\2222222222222222222': back-references are not supported (RE2 "
        "syntax)"}},
      {"header name",
       R"({"match": {"headers": {"bad header": "*"}}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.headers: 'bad header' is not a header name"}},
      {"status",
       R"({"match": {"status": ["abc", 600]}, "actions": ["strip-header etag"]})",
       {"rule 1 (strip-header-1): match.status: must be status codes 100..599 or classes like "
        "5xx (got \"abc\")",
        "rule 1 (strip-header-1): match.status: must be status codes 100..599 or classes like "
        "5xx (got \"600\")"}},
      {"status with an action before the store",
       R"({"match": {"status": 503}, "actions": ["error SlowDown"]})",
       {"rule 1 (error-1): match.status: 'error' acts before the store answers, so its rule "
        "cannot wait for a response status"}},
      {"head-as-get where no method is HEAD",
       R"({"match": {"methods": "GET,put"}, "actions": ["head-as-get", "head-as-get"]})",
       {"rule 1 (head-as-get-1): match.methods: 'head-as-get' acts only on HEAD requests, and the "
        "rule takes none (methods: GET, PUT)"}},
      {"head-as-get where no operation is a HEAD",
       R"({"match": {"operations": "GetObject,PutObject"}, "actions": ["head-as-get"]})",
       {"rule 1 (head-as-get-1): match.operations: 'head-as-get' acts only on HEAD requests "
        "(HeadObject), and the rule takes none (operations: GetObject, PutObject)"}},
      {"head-as-get on a response status",
       R"({"match": {"operations": "HeadObject", "status": 200}, "actions": ["head-as-get"]})",
       {"rule 1 (head-as-get-1): match.status: 'head-as-get' acts before the store answers, so "
        "its rule cannot wait for a response status"}},
      {"part zero",
       R"({"match": {"part": 0}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.part: must be a part number 1..10000 or a range like \"1-3\" "
        "(got 0)"}},
      {"part too high",
       R"({"match": {"part": "2-10001"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.part: must be a part number 1..10000 or a range like \"1-3\" "
        "(got \"2-10001\")"}},
      {"part range reversed",
       R"({"match": {"part": "3-1"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.part: must be a range from low to high (got \"3-1\")"}},
      {"schedule not an object",
       R"({"schedule": 5, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule: must be an object (got 5)"}},
      {"schedule key misspelt",
       R"({"schedule": {"frist": 2}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.frist: unknown key (nearest: first; allowed: probability, "
        "first, skip, "
        "every, times, per_key, after, until, in_flight_over, rate, burst, rate_per, "
        "min_body)"}},
      {"probability above one",
       R"({"schedule": {"probability": 1.5}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.probability: must be a fraction like 50% (got 1.5)"}},
      {"percentage above 100",
       R"({"schedule": {"probability": "150%"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.probability: must be a fraction like 50% (got \"150%\")"}},
      {"every zero",
       R"({"schedule": {"every": 0}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.every: must be a whole number >= 1 (got 0)"}},
      {"first negative",
       R"({"schedule": {"first": -1}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.first: must be a whole number >= 1 (got -1)"}},
      {"skip as words",
       R"({"schedule": {"skip": "two"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.skip: must be a whole number >= 0 (got \"two\")"}},
      {"times fractional",
       R"({"schedule": {"times": 1.5}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.times: must be a whole number >= 1 (got 1.5)"}},
      {"whole numbers as text are digits only",
       R"({"schedule": {"first": "5.0", "every": " 2", "times": "+3"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.first: must be a whole number >= 1 (got \"5.0\")",
        "rule 1 (reset-1): schedule.every: must be a whole number >= 1 (got \" 2\")",
        "rule 1 (reset-1): schedule.times: must be a whole number >= 1 (got \"+3\")"}},
      {"covers not an offset",
       R"({"match": {"covers": "twelve"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.covers: must be a byte offset like 12MiB or 12582912 (got "
        "\"twelve\")"}},
      {"covers negative",
       R"({"match": {"covers": -1}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.covers: must be a byte offset like 12MiB or 12582912 (got -1)"}},
      {"part fractional",
       R"({"match": {"part": 2.5}, "actions": ["reset"]})",
       {"rule 1 (reset-1): match.part: must be a part number 1..10000 or a range like \"1-3\" "
        "(got 2.5)"}},
      {"per_key",
       R"({"schedule": {"per_key": "yes"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.per_key: must be true or false (got \"yes\")"}},
      {"after",
       R"({"schedule": {"after": "soon"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.after: must be a duration like 250ms (got \"soon\")"}},
      {"until before after",
       R"({"schedule": {"after": "30s", "until": "10s"},
                                 "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.until: must be later than schedule.after (30s) (got "
        "\"10s\")"}},
      {"in_flight_over zero",
       R"({"name": "x", "schedule": {"in_flight_over": 0}, "actions": ["error SlowDown"]})",
       {"rule 1 (x): schedule.in_flight_over: must be a whole number >= 1 (got 0)"}},
      {"in_flight_over fractional",
       R"({"schedule": {"in_flight_over": 2.5}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.in_flight_over: must be a whole number >= 1 (got 2.5)"}},
      {"in_flight_over waiting for a status",
       R"({"match": {"status": 200}, "schedule": {"in_flight_over": 4},
           "actions": ["set-status 503"]})",
       {"rule 1 (set-status-1): schedule.in_flight_over: admits or refuses an exchange before "
        "the store sees it, so its rule cannot wait for a response status (match.status)"}},
      {"rate zero",
       R"({"schedule": {"rate": 0}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.rate: must be requests per second from 0.001 to 1000000, "
        "like 100 or 0.5 (got 0)"}},
      {"rate negative",
       R"({"schedule": {"rate": -1}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.rate: must be requests per second from 0.001 to 1000000, "
        "like 100 or 0.5 (got -1)"}},
      {"rate too high",
       R"({"schedule": {"rate": "2000000"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.rate: must be requests per second from 0.001 to 1000000, "
        "like 100 or 0.5 (got \"2000000\")"}},
      {"rate as a byte rate (throttle's rate= on one line)",
       R"({"schedule": {"rate": "1MiB/s"}, "actions": ["throttle 1MiB/s"]})",
       {"rule 1 (throttle-1): schedule.rate: must be requests per second from 0.001 to "
        "1000000, like 100 or 0.5; a byte rate of throttle or request-throttle goes by position "
        "or as throttle.rate=... (got \"1MiB/s\")"}},
      {"burst below one, burst and rate_per without rate",
       R"({"schedule": {"burst": 0.5, "rate_per": "prefix"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.burst: must be a number of requests from 1 to 1000000 (got "
        "0.5)",
        "rule 1 (reset-1): schedule.rate_per: needs schedule.rate (the rate it divides)"}},
      {"burst without rate",
       R"({"schedule": {"burst": 5}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.burst: needs schedule.rate (the rate that refills the "
        "bucket)"}},
      {"burst as a rate",
       R"({"schedule": {"rate": 5, "burst": "5/s"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.burst: must be a number of requests from 1 to 1000000 (got "
        "\"5/s\")"}},
      {"rate_per unknown",
       R"({"schedule": {"rate": 5, "rate_per": "bucket"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.rate_per: must be rule, prefix or key (got \"bucket\")"}},
      {"min_body alone",
       R"({"schedule": {"min_body": "64MiB"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.min_body: needs schedule.in_flight_over or schedule.rate (it "
        "picks the requests that take part in them)"}},
      {"min_body not a size",
       R"({"schedule": {"in_flight_over": 1, "min_body": "big"}, "actions": ["reset"]})",
       {"rule 1 (reset-1): schedule.min_body: must be a size like 1MiB (got \"big\")"}},
      {"every mistake of a rule, in order",
       R"({"name": "many", "match": {"operations": "Nope", "part": "x"},
           "schedule": {"every": 0}, "actions": ["truncate 200%"]})",
       {"rule 1 (many): match.operations: unknown operation 'Nope' (" + operations_hint() + ")",
        "rule 1 (many): match.part: must be a part number 1..10000 or a range like \"1-3\" (got "
        "\"x\")",
        "rule 1 (many): schedule.every: must be a whole number >= 1 (got 0)",
        "rule 1 (many): truncate.at: must be a size like 1MiB or a fraction like 50% (got "
        "\"200%\")"}},
  };
}

TEST(bad_rule, each_row_gives_exactly_its_messages) {
  const auto cases = bad_cases();
  EXPECT_GE(cases.size(), 30u);
  for (const auto& c : cases) {
    SCOPED_TRACE(c.label);
    const auto build = build_one(c.rule);
    EXPECT_EQ(build.errors, c.errors);
    EXPECT_TRUE(build.rules.empty());
  }
}

TEST(rule_set_validation, names_are_unique_across_the_set) {
  const auto build = parse_rule_document(json::parse(R"({"rules": [
      {"name": "x", "actions": ["reset"]},
      {"name": "y", "actions": ["reset"]},
      {"name": "x", "actions": ["hang"]}]})"));
  EXPECT_EQ(build.errors, (error_list{"rule 3 (x): name: 'x' is already used by rule 1 (x)"}));
  EXPECT_TRUE(build.rules.empty());
}

TEST(rule_set_validation, a_default_name_that_clashes_says_so) {
  const auto build = parse_rule_document(json::parse(R"({"rules": [
      {"name": "reset-2", "actions": ["reset"]},
      {"actions": ["reset"]}]})"));
  EXPECT_EQ(build.errors, (error_list{"rule 2 (reset-2): name: 'reset-2' is already used by "
                                      "rule 1 (reset-2) (this is the default name: give the rule "
                                      "a name)"}));
}

TEST(rule_set_validation, every_rule_is_checked_before_failing) {
  const auto build = parse_rule_document(json::parse(R"({"rules": [
      {"name": "a", "schedule": {"every": 0}, "actions": ["reset"]},
      {"name": "b", "actions": ["reset"]},
      {"name": "c", "match": {"part": 0}, "actions": ["reset"]}]})"));
  EXPECT_EQ(build.errors,
            (error_list{"rule 1 (a): schedule.every: must be a whole number >= 1 (got 0)",
                        "rule 3 (c): match.part: must be a part number 1..10000 or a range like "
                        "\"1-3\" (got 0)"}));
  EXPECT_TRUE(build.rules.empty()); // nothing takes effect, not even the good rule
}

TEST(rule_set_validation, default_names_number_the_position_in_the_set) {
  const auto build = parse_rule_document(json::parse(R"({"rules": [
      {"actions": ["reset"]}, {"name": "mine", "actions": ["reset"]}, {"actions": ["hang"]}]})"));
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  ASSERT_EQ(build.rules.size(), 3u);
  EXPECT_EQ(build.rules[0].name, "reset-1");
  EXPECT_EQ(build.rules[1].name, "mine");
  EXPECT_EQ(build.rules[2].name, "hang-3");
}

TEST(rule_values, fields_reach_the_plain_structs) {
  const auto build = build_one(R"({
      "name": "all", "enabled": false,
      "match": {"operations": "GetObject", "methods": "get", "bucket": "data-*",
                "key": "*.parquet", "query": {"partNumber": 2},
                "headers": {"x-amz-checksum-mode": "^enabled$"}, "status": "2xx",
                "part": "2-4"},
      "schedule": {"probability": "25%", "first": 3, "skip": 1, "every": 2, "times": 4,
                   "per_key": true, "after": "2s", "until": "1m"},
      "actions": [{"truncate": "50%", "mode": "consistent"}]})");
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  const rule& r = build.rules[0];
  EXPECT_EQ(r.name, "all");
  EXPECT_FALSE(r.enabled);
  EXPECT_EQ(r.match.operations, std::vector<s3_operation>{s3_operation::GetObject});
  EXPECT_EQ(r.match.methods, std::vector<std::string>{"GET"});
  EXPECT_EQ(r.match.bucket, "data-*");
  EXPECT_EQ(r.match.key, "*.parquet");
  ASSERT_EQ(r.match.query.size(), 1u);
  EXPECT_EQ(r.match.query[0].name, "partNumber");
  EXPECT_EQ(r.match.query[0].value, "2");
  ASSERT_EQ(r.match.headers.size(), 1u);
  ASSERT_NE(r.match.headers[0].regex, nullptr);
  EXPECT_TRUE(r.match.headers[0].regex->found_in("ENABLED")); // case-insensitive
  EXPECT_FALSE(r.match.headers[0].regex->found_in("disabled"));
  ASSERT_EQ(r.match.statuses.size(), 100u);
  EXPECT_EQ(r.match.statuses.front(), 200u);
  EXPECT_EQ(r.match.statuses.back(), 299u);
  EXPECT_EQ(r.match.part_numbers, std::make_pair(2u, 4u));
  EXPECT_DOUBLE_EQ(r.schedule.probability, 0.25);
  EXPECT_EQ(r.schedule.first, 3u);
  EXPECT_EQ(r.schedule.skip, 1u);
  EXPECT_EQ(r.schedule.every, 2u);
  EXPECT_EQ(r.schedule.times, 4u);
  EXPECT_TRUE(r.schedule.per_key);
  EXPECT_EQ(r.schedule.after, std::chrono::seconds(2));
  EXPECT_EQ(r.schedule.until, std::chrono::minutes(1));
  EXPECT_FALSE(r.schedule.load_shaped());
  ASSERT_EQ(r.actions.size(), 1u);
  EXPECT_EQ(r.actions[0]->type(), "truncate");
  ASSERT_NE(r.state, nullptr);
}

TEST(rule_values, load_fields_reach_the_plain_structs) {
  const auto build = build_one(R"({"schedule": {"in_flight_over": 4, "min_body": "64MiB",
      "rate": 0.25, "rate_per": "key"}, "actions": ["error SlowDown"]})");
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  const schedule_spec& s = build.rules[0].schedule;
  EXPECT_TRUE(s.load_shaped());
  EXPECT_EQ(s.in_flight_over, 4u);
  EXPECT_EQ(s.min_body, 64u << 20);
  EXPECT_DOUBLE_EQ(*s.rate, 0.25);
  EXPECT_EQ(s.burst, std::nullopt);
  EXPECT_DOUBLE_EQ(s.bucket_size(), 1.0); // max(1, rate)
  EXPECT_EQ(s.rate_per, rate_scope::key);
}

TEST(rule_values, a_header_without_pattern_has_no_regex) {
  const auto build = build_one(R"({"match": {"headers": {"range": "*"}}, "actions": ["reset"]})");
  ASSERT_TRUE(build.ok());
  ASSERT_EQ(build.rules[0].match.headers.size(), 1u);
  EXPECT_EQ(build.rules[0].match.headers[0].regex, nullptr);
  EXPECT_EQ(build.rules[0].match.headers[0].pattern, "");
}

TEST(rule_values, patterns_the_old_std_regex_guard_refused_are_fine_in_re2) {
  // Repetition counts above 100, patterns over 256 characters, a number too large to be a count
  // (RE2 reads the braces literally), escaped braces, \0 (octal) and \Q...\E literal text.
  const std::string long_pattern = "^" + std::string(300, 'x') + "$";
  const auto build =
      build_one(R"({"match": {"headers": {"etag": "^a{1,100}\\{9999}$", "range": "x{2,1000}",)"
                R"( "x-huge": "a{2222222222222222222}", "x-long": ")" +
                long_pattern +
                R"(", "x-octal": "a\\0b", "x-quoted": "\\Q(a)\\1\\E"}},)"
                R"( "actions": ["reset"]})");
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  const auto& headers = build.rules[0].match.headers;
  ASSERT_EQ(headers.size(), 6u);
  for (const auto& condition : headers) {
    EXPECT_NE(condition.regex, nullptr) << condition.name;
  }
  const auto find = [&](std::string_view name) -> const header_regex& {
    for (const auto& condition : headers) {
      if (condition.name == name) {
        return *condition.regex;
      }
    }
    throw std::runtime_error("no condition " + std::string(name));
  };
  EXPECT_TRUE(find("x-huge").found_in("the a{2222222222222222222} text"));
  EXPECT_FALSE(find("x-huge").found_in("aa"));
  EXPECT_TRUE(find("x-long").found_in(std::string(300, 'X')));
  EXPECT_TRUE(find("x-octal").found_in(std::string("a\0b", 3)));
  EXPECT_TRUE(find("x-quoted").found_in("(a)\\1"));
}

TEST(rule_values, a_pattern_too_large_for_re2s_memory_limit_is_refused) {
  // 100 characters repeated 1000 times: about 100,000 instructions, over 1 MiB.
  const std::string pattern = "(" + std::string(100, 'a') + "){1000}";
  const auto build =
      build_one(R"({"match": {"headers": {"etag": ")" + pattern + R"("}}, "actions": ["reset"]})");
  EXPECT_EQ(build.errors,
            (error_list{"rule 1 (reset-1): match.headers.etag: regex '(" + std::string(56, 'a') +
                        "...' is too large: RE2 would need more than 1 MiB for it"}));
}

TEST(rule_values, header_regexes_are_searched_in_the_value_ignoring_case) {
  const auto build = build_one(
      R"({"match": {"headers": {"etag": "^\"abc", "range": "=0-", "x-amz-meta-b": "\\xff."}},)"
      R"( "actions": ["reset"]})");
  ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  const auto& headers = build.rules[0].match.headers;
  ASSERT_EQ(headers.size(), 3u);
  const header_regex& etag = *headers[0].regex;
  EXPECT_TRUE(etag.found_in("\"ABC123\""));
  EXPECT_FALSE(etag.found_in("W/\"abc\""));
  const header_regex& range = *headers[1].regex;
  EXPECT_TRUE(range.found_in("bytes=0-99"));
  EXPECT_FALSE(range.found_in("bytes=1-99"));
  // Bytes, not UTF-8: any byte is a character.
  const header_regex& raw = *headers[2].regex;
  EXPECT_TRUE(raw.found_in("x\xff\x80"));
  EXPECT_FALSE(raw.found_in("x\xff"));
}

TEST(rule_document, seed_and_rules) {
  const auto build =
      parse_rule_document(json::parse(R"({"seed": 42, "rules": [{"actions": ["reset"]}]})"));
  ASSERT_TRUE(build.ok());
  EXPECT_EQ(build.seed, 42u);
  EXPECT_EQ(build.rules.size(), 1u);
}

TEST(rule_document, the_seed_is_a_whole_number_by_the_one_rule) {
  const auto seed_of = [](const char* seed) {
    return parse_rule_document(json::parse(std::string(R"({"rules": [], "seed": )") + seed + "}"))
        .seed;
  };
  EXPECT_EQ(seed_of("42.0"), 42u);
  EXPECT_EQ(seed_of(R"("18446744073709551615")"), 18446744073709551615u);
  EXPECT_EQ(seed_of("18446744073709551615"), 18446744073709551615u);
  EXPECT_FALSE(seed_of(R"("18446744073709551616")"));
  EXPECT_FALSE(seed_of(R"("42.0")"));
  EXPECT_FALSE(seed_of("42.5"));
  EXPECT_FALSE(seed_of("true"));
}

TEST(rule_document, a_bare_list_and_an_empty_list_are_rule_sets) {
  EXPECT_EQ(parse_rule_document(json::parse(R"([{"actions": ["reset"]}])")).rules.size(), 1u);
  const auto empty = parse_rule_document(json::parse(R"({"rules": []})"));
  EXPECT_TRUE(empty.ok());
  EXPECT_TRUE(empty.rules.empty());
}

TEST(rule_document, document_mistakes_are_reported_with_the_rules_ones) {
  const auto build = parse_rule_document(
      json::parse(R"({"seed": -1, "rulez": [], "rules": [{"actions": []}]})"), "body");
  EXPECT_EQ(build.errors,
            (error_list{"body: rulez: unknown key (nearest: rules; allowed: seed, rules, profile)",
                        "body: seed: must be a whole number >= 0 (got -1)",
                        "body: rule 1 (rule-1): actions: at least one action is required"}));
  EXPECT_EQ(parse_rule_document(json::parse(R"({"seed": 1})")).errors,
            (error_list{"rules: missing (a list of rules)"}));
  EXPECT_EQ(parse_rule_document(json::parse(R"({"rules": {}})")).errors,
            (error_list{"rules: must be a list of rules (got {})"}));
  EXPECT_EQ(parse_rule_document(json::parse(R"("rules")")).errors,
            (error_list{"must be an object with \"rules\" (and optionally \"seed\") (got "
                        "\"rules\")"}));
}

// Every unknown name in a rule is answered with the names nearest to it, then all of them.
TEST(rule_parser, unknown_names_come_with_the_nearest) {
  const auto first_error = [](std::string_view rule) {
    const auto build = build_one(rule);
    return build.errors.empty() ? std::string() : build.errors.front();
  };
  EXPECT_EQ(first_error(R"({"match": {"operations": ["HeadObjekt"]}, "actions": ["reset"]})"),
            "rule 1 (reset-1): match.operations: unknown operation 'HeadObjekt' (nearest: "
            "HeadObject; " +
                operations_hint() + ")");
  EXPECT_EQ(first_error(R"({"match": {"operatons": ["GetObject"]}, "actions": ["reset"]})"),
            "rule 1 (reset-1): match.operatons: unknown key (nearest: operations; allowed: "
            "operations, methods, bucket, key, query, headers, status, part, covers)");
  EXPECT_EQ(first_error(R"({"shedule": {"first": 1}, "actions": ["reset"]})"),
            "rule 1 (reset-1): shedule: unknown key (nearest: schedule; allowed: name, enabled, "
            "match, schedule, actions, reproduces)");
  EXPECT_EQ(first_error(R"({"actions": ["trunc 50%"]})"),
            "rule 1 (rule-1): actions[1]: unknown action 'trunc' (nearest: truncate; known: " +
                known_actions() + ")");
  EXPECT_EQ(first_error(R"({"actions": [{"trunc": "50%"}]})"),
            "rule 1 (rule-1): actions[1]: unknown action 'trunc' (nearest: truncate; known: " +
                known_actions() + ")");
  EXPECT_EQ(first_error(R"({"actions": [{"type": "trunc", "at": "50%"}]})"),
            "rule 1 (rule-1): actions[1]: unknown action 'trunc' (nearest: truncate; known: " +
                known_actions() + ")");
  const auto schedule = first_error(R"({"schedule": {"frist": 1}, "actions": ["reset"]})");
  EXPECT_EQ(schedule.rfind("rule 1 (reset-1): schedule.frist: unknown key (nearest: first; "
                           "allowed: probability, first, ",
                           0),
            0u)
      << schedule;
  EXPECT_EQ(first_error(R"({"actions": [{"type": "delay", "duration": "1s", "jiter": "1ms"}]})"),
            "rule 1 (delay-1): delay.jiter: unknown parameter (nearest: jitter; delay takes "
            "duration, jitter)");
  const auto code = first_error(R"({"actions": ["error SlowDwn"]})");
  EXPECT_EQ(code.rfind("rule 1 (error-1): error.code: unknown S3 error code \"SlowDwn\" (nearest: "
                       "SlowDown",
                       0),
            0u)
      << code;
  EXPECT_EQ(first_error(R"({"actions": ["truncate 50% mode=clse"]})"),
            "rule 1 (truncate-1): truncate.mode: must be one of close, consistent, length-only "
            "(got \"clse\"; nearest: close)");
  EXPECT_EQ(first_error(R"({"schedule": {"rate": 5, "rate_per": "prefx"}, "actions": ["reset"]})"),
            "rule 1 (reset-1): schedule.rate_per: must be rule, prefix or key (got \"prefx\"; "
            "nearest: prefix)");
  EXPECT_EQ(first_error(R"({"actions": ["reset"]})"), "") << "a good rule has none";
}

} // namespace
} // namespace s3fault::faults::config
