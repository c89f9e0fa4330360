// The action registry, tested by iterating it: every kind is well formed and its example is a
// valid rule that builds an action of its type and phase, so a new action is covered the moment
// it is registered, with no table here to keep in step.
#include "action_test_support.hpp"
#include "faults/config/fault_spec.hpp"

#include <gtest/gtest.h>

#include <set>

using namespace s3fault::faults;
using namespace s3fault::faults::testing;
using nlohmann::json;

namespace {

/// The action parameters of a kind's one-line example.
json example_params(const action_kind& kind) {
  error_list errors;
  const auto rule = config::fault_spec_to_json(kind.example, errors);
  EXPECT_TRUE(errors.empty()) << kind.type << ": " << ::testing::PrintToString(errors);
  if (!rule) {
    return json::object();
  }
  const json& action = rule->at("actions").at(0);
  EXPECT_EQ(action.at("type"), kind.type);
  return action;
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

TEST(ActionRegistry, TypesAreUniqueLowerCaseWordsWithSummariesAndExamples) {
  std::set<std::string_view> seen;
  for (const auto& kind : action_kinds()) {
    EXPECT_TRUE(seen.insert(kind.type).second) << kind.type << " registered twice";
    EXPECT_FALSE(kind.type.empty());
    for (const char c : kind.type) {
      EXPECT_TRUE((c >= 'a' && c <= 'z') || c == '-') << kind.type;
    }
    EXPECT_FALSE(kind.summary.empty()) << kind.type;
    EXPECT_TRUE(kind.example.starts_with(kind.type)) << kind.type << ": " << kind.example;
  }
  EXPECT_GE(seen.size(), 16u);
}

TEST(ActionRegistry, FindsByExactType) {
  for (const auto& kind : action_kinds()) {
    const action_kind* found = find_action_kind(kind.type);
    ASSERT_NE(found, nullptr) << kind.type;
    EXPECT_EQ(found->type, kind.type);
  }
  EXPECT_EQ(find_action_kind("Truncate"), nullptr);
  EXPECT_EQ(find_action_kind("explode"), nullptr);
  EXPECT_EQ(find_action_kind(""), nullptr);
}

TEST(ActionRegistry, ExamplesBuildActionsOfTheirTypeAndPhase) {
  for (const auto& kind : action_kinds()) {
    error_list errors;
    const auto action = kind.parse(example_params(kind), errors);
    ASSERT_NE(action, nullptr) << kind.type << ": " << ::testing::PrintToString(errors);
    EXPECT_EQ(action->type(), kind.type);
    EXPECT_EQ(action->phase(), kind.phase) << kind.type;
    EXPECT_EQ(action->to_json().at("type"), kind.type);
    // Exactly the body actions give a per-exchange filter.
    random_engine random(1);
    const bool body_phase =
        kind.phase == action_phase::response_body || kind.phase == action_phase::request_body;
    EXPECT_EQ(action->make_body_filter(random) != nullptr, body_phase) << kind.type;
    // The definition it reports builds the same action again.
    error_list again;
    const auto rebuilt = kind.parse(action->to_json(), again);
    ASSERT_NE(rebuilt, nullptr) << kind.type << ": " << ::testing::PrintToString(again);
    EXPECT_EQ(rebuilt->to_json(), action->to_json());
  }
}

TEST(ActionRegistry, PositionalNamesAreParametersAndEveryParameterIsTaken) {
  for (const auto& kind : action_kinds()) {
    const std::set<std::string_view> positional(kind.positional.begin(), kind.positional.end());
    EXPECT_EQ(positional.size(), kind.positional.size()) << kind.type;
    const std::set<std::string_view> parameters(kind.parameters.begin(), kind.parameters.end());
    EXPECT_EQ(parameters.size(), kind.parameters.size()) << kind.type;
    for (const auto name : kind.positional) {
      EXPECT_TRUE(parameters.contains(name)) << kind.type << " positional " << name;
    }
    for (const auto name : kind.parameters) {
      json params = example_params(kind);
      params[std::string(name)] = "x";
      error_list errors;
      kind.parse(params, errors);
      EXPECT_FALSE(mentions_unknown_parameter(errors, name))
          << kind.type << " parameter " << name << ": " << ::testing::PrintToString(errors);
    }
  }
}

TEST(ActionRegistry, UnknownParametersAreErrorsForEveryKind) {
  for (const auto& kind : action_kinds()) {
    json params = example_params(kind);
    params["no_such_parameter"] = 1;
    error_list errors;
    EXPECT_EQ(kind.parse(params, errors), nullptr) << kind.type;
    EXPECT_TRUE(mentions_unknown_parameter(errors, "no_such_parameter")) << kind.type;
  }
}
