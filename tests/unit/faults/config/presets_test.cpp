// Presets: every one expands and validates, parameters reach the rules, mistakes are named.
#include "faults/config/presets.hpp"

#include "faults/config/build_rules.hpp"

#include <gtest/gtest.h>

namespace s3fault::faults::config {
namespace {

using nlohmann::json;

TEST(presets, every_preset_expands_and_validates) {
  ASSERT_GE(presets().size(), 8u);
  for (const auto& p : presets()) {
    SCOPED_TRACE(std::string(p.name));
    EXPECT_FALSE(p.description.empty());
    const auto build = build_rules({}, {}, {std::string(p.name)});
    ASSERT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
    ASSERT_EQ(build.rules.size(), p.specs.size());
    EXPECT_EQ(build.rules[0].name,
              p.specs.size() == 1 ? std::string(p.name) : std::string(p.name) + "-1");
  }
}

TEST(presets, the_named_ones_exist) {
  for (const char* name :
       {"rustfs-parts-count", "slowdown-storm", "short-body", "flaky-connection",
        "no-content-range", "parts-count-low", "internal-error-once", "slow-first-byte"}) {
    EXPECT_NE(find_preset(name), nullptr) << name;
  }
  EXPECT_EQ(find_preset("nope"), nullptr);
}

json definition_of(const std::string& preset_text) {
  const auto build = build_rules({}, {}, {preset_text});
  EXPECT_TRUE(build.ok()) << ::testing::PrintToString(build.errors);
  return build.rules.empty() ? json() : build.rules[0].definition;
}

TEST(presets, rustfs_parts_count_strips_the_header_from_part_reads) {
  EXPECT_EQ(definition_of("rustfs-parts-count"), json::parse(R"({
      "name": "rustfs-parts-count", "enabled": true,
      "match": {"operations": ["GetObject", "HeadObject"], "query": {"partNumber": "*"}},
      "schedule": {},
      "actions": [{"type": "strip-header", "name": "x-amz-mp-parts-count"}]})"));
}

TEST(presets, defaults_and_parameters) {
  EXPECT_EQ(definition_of("slowdown-storm")["schedule"], json::parse(R"({"probability": 0.5})"));
  EXPECT_EQ(definition_of("slowdown-storm:p=0.2")["schedule"],
            json::parse(R"({"probability": 0.2})"));
  EXPECT_EQ(definition_of("slowdown-storm:code=SlowDownRead")["actions"][0]["code"],
            "SlowDownRead");
  EXPECT_EQ(definition_of("short-body")["actions"][0],
            json::parse(R"({"type": "truncate", "at": "50%", "mode": "consistent"})"));
  EXPECT_EQ(definition_of("short-body:at=1KiB")["actions"][0]["at"], 1024);
  const json flaky = definition_of("flaky-connection");
  EXPECT_EQ(flaky["actions"][0], json::parse(R"({"type": "reset-after", "bytes": 1048576})"));
  EXPECT_EQ(flaky["schedule"], json::parse(R"({"probability": 0.2})"));
  EXPECT_EQ(definition_of("flaky-connection:bytes=50%")["actions"][0]["bytes"], "50%");
  // Common parameters: p, bucket, key, name.
  const json narrowed =
      definition_of("rustfs-parts-count:p=10%,bucket=data-*,key=*.parquet,name=strip-pc");
  EXPECT_EQ(narrowed["name"], "strip-pc");
  EXPECT_EQ(narrowed["match"]["bucket"], "data-*");
  EXPECT_EQ(narrowed["match"]["key"], "*.parquet");
  EXPECT_EQ(narrowed["schedule"]["probability"], 0.1);
  EXPECT_EQ(definition_of("internal-error-once")["schedule"],
            json::parse(R"({"first": 1, "per_key": true})"));
}

TEST(presets, a_value_with_blanks_stays_one_value) {
  const auto rules = [] {
    error_list errors;
    auto expanded = expand_preset("no-content-range:key=my key*", errors);
    EXPECT_TRUE(errors.empty()) << ::testing::PrintToString(errors);
    return expanded.value_or(std::vector<json>{});
  }();
  ASSERT_EQ(rules.size(), 1u);
  EXPECT_EQ(rules[0]["match"]["key"], "my key*");
}

TEST(presets, mistakes_are_named_with_the_preset) {
  const auto build = build_rules({}, {},
                                 {"slowdown-storm:q=1", "short-body:at", "nope",
                                  "slowdown-storm:p=2", "short-body:at=1%,at=2%"});
  EXPECT_EQ(
      build.errors,
      (error_list{"--preset 1 ('slowdown-storm:q=1'): unknown parameter 'q' of preset "
                  "'slowdown-storm' (nearest: p; allowed: p, code, bucket, key, name)",
                  "--preset 2 ('short-body:at'): expected key=value, got 'at'",
                  "--preset 3 ('nope'): unknown preset 'nope' (known: rustfs-parts-count, "
                  "slowdown-storm, short-body, flaky-connection, no-content-range, "
                  "parts-count-low, internal-error-once, slow-first-byte, slow-body, bit-rot)",
                  "--preset 5 ('short-body:at=1%,at=2%'): 'at' given twice",
                  "--preset 4 ('slowdown-storm:p=2'): rule 1 (slowdown-storm): "
                  "schedule.probability: must be a fraction like 50% (got 2)"}));
}

TEST(presets, one_preset_twice_needs_a_name) {
  const auto build = build_rules({}, {}, {"slowdown-storm", "slowdown-storm:p=1%"});
  EXPECT_EQ(build.errors,
            (error_list{"--preset 2 ('slowdown-storm:p=1%'): rule 1 (slowdown-storm): name: "
                        "'slowdown-storm' is already used by --preset 1 ('slowdown-storm'): "
                        "rule 1 (slowdown-storm)"}));
  EXPECT_TRUE(build_rules({}, {}, {"slowdown-storm", "slowdown-storm:p=1%,name=light"}).ok());
}

TEST(presets, unknown_names_come_with_the_nearest) {
  const auto build = build_rules({}, {}, {"slowdwn-storm", "slowdown-storm:cod=SlowDown"});
  ASSERT_EQ(build.errors.size(), 2u) << ::testing::PrintToString(build.errors);
  EXPECT_EQ(build.errors[0].rfind("--preset 1 ('slowdwn-storm'): unknown preset 'slowdwn-storm' "
                                  "(nearest: slowdown-storm; known: rustfs-parts-count, ",
                                  0),
            0u)
      << build.errors[0];
  EXPECT_EQ(build.errors[1], "--preset 2 ('slowdown-storm:cod=SlowDown'): unknown parameter 'cod' "
                             "of preset 'slowdown-storm' (nearest: code; allowed: p, code, "
                             "bucket, key, name)");
}

} // namespace
} // namespace s3fault::faults::config
