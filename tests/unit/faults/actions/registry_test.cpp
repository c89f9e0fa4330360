#include "action_test_support.hpp"

#include <gtest/gtest.h>

#include <map>
#include <set>

using namespace s3fault::faults;
using namespace s3fault::faults::testing;
using nlohmann::json;

namespace {

/// Every action type with the smallest parameters that make it valid, and its phase.
struct expected_kind {
  action_phase phase;
  const char* minimal_params;
};

const std::map<std::string, expected_kind>& expected_kinds() {
  static const std::map<std::string, expected_kind> kinds = {
      {"delay", {action_phase::before_store, R"({"duration": "1s"})"}},
      {"error", {action_phase::before_store, R"({"code": "SlowDown"})"}},
      {"reset", {action_phase::before_store, "{}"}},
      {"hang", {action_phase::before_store, "{}"}},
      {"forward-then-error", {action_phase::before_store, R"({"code": "InternalError"})"}},
      {"strip-header", {action_phase::response_head, R"({"name": "ETag"})"}},
      {"set-header", {action_phase::response_head, R"({"name": "ETag", "value": "x"})"}},
      {"set-status", {action_phase::response_head, R"({"code": 500})"}},
      {"first-byte-delay", {action_phase::response_head, R"({"duration": "1s"})"}},
      {"truncate", {action_phase::response_body, R"({"at": "50%"})"}},
      {"corrupt", {action_phase::response_body, R"({"offsets": [0]})"}},
      {"throttle", {action_phase::response_body, R"({"rate": "1MiB/s"})"}},
      {"stall", {action_phase::response_body, R"({"after": 10, "duration": "1s"})"}},
      {"reset-after", {action_phase::response_body, R"({"bytes": 10})"}},
      {"request-throttle", {action_phase::request_body, R"({"rate": "1MiB/s"})"}},
      {"request-reset-after", {action_phase::request_body, R"({"bytes": 10})"}},
  };
  return kinds;
}

bool mentions_unknown_parameter(const error_list& errors, std::string_view name) {
  const std::string prefix = std::string(name) + ": unknown parameter";
  for (const auto& error : errors) {
    if (error.starts_with(prefix)) {
      return true;
    }
  }
  return false;
}

} // namespace

TEST(ActionRegistry, ListsEveryTypeExactlyOnce) {
  std::multiset<std::string> listed;
  for (const auto& kind : action_kinds()) {
    listed.insert(std::string(kind.type));
  }
  std::multiset<std::string> expected;
  for (const auto& [type, _] : expected_kinds()) {
    expected.insert(type);
  }
  EXPECT_EQ(listed, expected);
}

TEST(ActionRegistry, FindsByExactType) {
  for (const auto& [type, _] : expected_kinds()) {
    const action_kind* kind = find_action_kind(type);
    ASSERT_NE(kind, nullptr) << type;
    EXPECT_EQ(kind->type, type);
  }
  EXPECT_EQ(find_action_kind("Truncate"), nullptr);
  EXPECT_EQ(find_action_kind("explode"), nullptr);
  EXPECT_EQ(find_action_kind(""), nullptr);
}

TEST(ActionRegistry, KindsBuildActionsOfTheirTypeAndPhase) {
  for (const auto& kind : action_kinds()) {
    const auto& expected = expected_kinds().at(std::string(kind.type));
    EXPECT_EQ(kind.phase, expected.phase) << kind.type;
    EXPECT_FALSE(kind.summary.empty()) << kind.type;
    const auto action = make_action(kind.type, expected.minimal_params);
    ASSERT_NE(action, nullptr) << kind.type;
    EXPECT_EQ(action->type(), kind.type);
    EXPECT_EQ(action->phase(), kind.phase) << kind.type;
    EXPECT_EQ(action->to_json().at("type"), kind.type);
    // Exactly the body actions give a per-exchange filter.
    random_engine random(1);
    const bool body_phase =
        kind.phase == action_phase::response_body || kind.phase == action_phase::request_body;
    EXPECT_EQ(action->make_body_filter(random) != nullptr, body_phase) << kind.type;
  }
}

TEST(ActionRegistry, PositionalNamesAreParameters) {
  for (const auto& kind : action_kinds()) {
    std::set<std::string_view> unique(kind.positional.begin(), kind.positional.end());
    EXPECT_EQ(unique.size(), kind.positional.size()) << kind.type;
    const std::set<std::string_view> parameters(kind.parameters.begin(), kind.parameters.end());
    EXPECT_EQ(parameters.size(), kind.parameters.size()) << kind.type;
    for (const auto name : kind.positional) {
      EXPECT_TRUE(parameters.contains(name)) << kind.type << " positional " << name;
    }
    // Every listed parameter is one the parser takes.
    for (const auto name : kind.parameters) {
      json params = json::parse(expected_kinds().at(std::string(kind.type)).minimal_params);
      params[std::string(name)] = "x";
      error_list errors;
      kind.parse(params, errors);
      EXPECT_FALSE(mentions_unknown_parameter(errors, name))
          << kind.type << " parameter " << name << ": " << ::testing::PrintToString(errors);
    }
  }
}

TEST(ActionRegistry, PositionalAndAllParameters) {
  const std::map<std::string, std::vector<std::string_view>> all = {
      {"delay", {"duration", "jitter"}},
      {"error", {"code", "status", "message", "retry_after"}},
      {"reset", {}},
      {"hang", {}},
      {"forward-then-error", {"code", "status", "message", "retry_after"}},
      {"strip-header", {"name"}},
      {"set-header", {"name", "value"}},
      {"set-status", {"code"}},
      {"first-byte-delay", {"duration"}},
      {"truncate", {"at", "mode"}},
      {"corrupt", {"offsets", "count"}},
      {"throttle", {"rate"}},
      {"stall", {"after", "duration"}},
      {"reset-after", {"bytes"}},
      {"request-throttle", {"rate"}},
      {"request-reset-after", {"bytes"}},
  };
  const std::map<std::string, std::vector<std::string_view>> expected = {
      {"delay", {"duration", "jitter"}},
      {"error", {"code", "status"}},
      {"reset", {}},
      {"hang", {}},
      {"forward-then-error", {"code", "status"}},
      {"strip-header", {"name"}},
      {"set-header", {"name", "value"}},
      {"set-status", {"code"}},
      {"first-byte-delay", {"duration"}},
      {"truncate", {"at", "mode"}},
      {"corrupt", {"offsets"}},
      {"throttle", {"rate"}},
      {"stall", {"after", "duration"}},
      {"reset-after", {"bytes"}},
      {"request-throttle", {"rate"}},
      {"request-reset-after", {"bytes"}},
  };
  for (const auto& kind : action_kinds()) {
    EXPECT_EQ(kind.positional, expected.at(std::string(kind.type))) << kind.type;
    EXPECT_EQ(kind.parameters, all.at(std::string(kind.type))) << kind.type;
  }
}

TEST(ActionRegistry, UnknownParametersAreErrorsForEveryKind) {
  for (const auto& kind : action_kinds()) {
    json params = json::parse(expected_kinds().at(std::string(kind.type)).minimal_params);
    params["no_such_parameter"] = 1;
    error_list errors;
    EXPECT_EQ(kind.parse(params, errors), nullptr) << kind.type;
    EXPECT_TRUE(mentions_unknown_parameter(errors, "no_such_parameter")) << kind.type;
  }
}
