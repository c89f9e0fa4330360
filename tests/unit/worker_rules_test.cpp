// A worker's copy of the rules snapshot: the same snapshot while the store publishes nothing,
// the new one at the first exchange after a change, and the old one alive for the exchanges
// that still hold it.
#include "proxy/worker_rules.hpp"

#include "faults/config/fault_spec.hpp"
#include "faults/config/rule_parser.hpp"

#include <gtest/gtest.h>

namespace s3fault::proxy {
namespace {

std::vector<faults::rule> one_rule(const std::string& spec) {
  faults::error_list errors;
  const auto rule_json = faults::config::fault_spec_to_json(spec, errors);
  EXPECT_TRUE(rule_json) << spec;
  auto build = faults::config::parse_rule_document(
      nlohmann::json::array({rule_json.value_or(nlohmann::json::object())}));
  EXPECT_TRUE(build.ok());
  return std::move(build.rules);
}

TEST(WorkerRules, FollowsEachPublishedSnapshotAndKeepsTheOldOneForItsHolders) {
  faults::rule_store store(1, faults::clock::now());
  worker_rules rules;
  const auto first = rules.snapshot(store);
  EXPECT_EQ(first.get(), store.current().get());
  EXPECT_TRUE(first->rules().empty());
  EXPECT_EQ(rules.snapshot(store).get(), first.get()) << "nothing was published";

  store.replace_all(one_rule("error SlowDown name=slow"));
  const auto second = rules.snapshot(store);
  EXPECT_EQ(second.get(), store.current().get());
  ASSERT_EQ(second->rules().size(), 1u);
  // The exchange that started before the change still sees the snapshot it started with.
  EXPECT_TRUE(first->rules().empty());

  ASSERT_EQ(store.remove("slow"), faults::rule_store::change_error::none);
  EXPECT_TRUE(rules.snapshot(store)->rules().empty());
  EXPECT_EQ(second->rules().size(), 1u);
}

} // namespace
} // namespace s3fault::proxy
