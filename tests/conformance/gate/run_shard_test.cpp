// Sharding the gate's plan: every run owned by exactly one shard, shards balanced in count,
// owners that depend on the runs' keys only, and the baselines a shard needs besides its own.
#include "conformance/gate/run_shard.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <map>
#include <set>

namespace s3fault::gate {
namespace {

run_plan builtin_plan(std::uint64_t seed = 1) {
  return plan_runs(builtin_matrix(), {"*"}, {"*"}, {}, seed);
}

TEST(RunShard, EveryRunIsOwnedByExactlyOneShardAndTheShardsAreBalanced) {
  const auto plan = builtin_plan();
  ASSERT_GT(plan.runs.size(), 20u);
  for (unsigned count = 1; count <= 7; ++count) {
    const auto owners = run_owners(plan.runs, count);
    std::map<unsigned, std::size_t> owned_by;
    std::multiset<std::string> owned_keys;
    for (unsigned k = 1; k <= count; ++k) {
      const auto share = share_of_plan(plan, owners, k);
      for (std::size_t i = 0; i < share.plan.runs.size(); ++i) {
        if (share.owned[i]) {
          owned_keys.insert(share.plan.runs[i].key);
          ++owned_by[k];
        }
      }
    }
    EXPECT_EQ(owned_keys.size(), plan.runs.size()) << count << " shards";
    for (const auto& run : plan.runs) {
      EXPECT_EQ(owned_keys.count(run.key), 1u) << run.key << ", " << count << " shards";
    }
    const auto [fewest, most] =
        std::minmax_element(owned_by.begin(), owned_by.end(),
                            [](const auto& a, const auto& b) { return a.second < b.second; });
    EXPECT_LE(most->second - fewest->second, 1u) << count << " shards";
    EXPECT_EQ(owned_by.size(), count) << "every shard owns a run";
  }
}

TEST(RunShard, OwnersDependOnTheRunKeysOnly) {
  // Not on the order the runs come in, nor on the gate's seed (nor on --jobs, which the split
  // never sees): every machine computes the same split from the same selection.
  const auto plan = builtin_plan(1);
  const auto owners = run_owners(plan.runs, 3);
  std::map<std::string, unsigned> owner_of;
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    owner_of[plan.runs[i].key] = owners[i];
  }
  auto reversed = plan_runs(builtin_matrix(), {"*"}, {"*"}, {}, 99).runs;
  std::reverse(reversed.begin(), reversed.end());
  const auto reversed_owners = run_owners(reversed, 3);
  for (std::size_t i = 0; i < reversed.size(); ++i) {
    EXPECT_EQ(reversed_owners[i], owner_of.at(reversed[i].key)) << reversed[i].key;
  }
}

TEST(RunShard, ASmallSelectionIsBalancedToo) {
  // A smaller selection deals its runs anew (balanced again), so shards of one gate must share
  // the selection: merge refuses parts whose selections differ.
  const auto plan = plan_runs(builtin_matrix(), {"strip-*"}, {"1KiB", "empty"}, {}, 1);
  const auto owners = run_owners(plan.runs, 2);
  const auto ones = std::count(owners.begin(), owners.end(), 1u);
  EXPECT_LE(std::abs(static_cast<long>(plan.runs.size()) - 2 * ones), 1);
}

TEST(RunShard, AShardAlsoRunsTheBaselineOfEveryShapeItsOwnRunsUse) {
  const auto plan = builtin_plan();
  const auto owners = run_owners(plan.runs, 4);
  for (unsigned k = 1; k <= 4; ++k) {
    const auto share = share_of_plan(plan, owners, k);
    std::set<std::string> baselines, shapes_used;
    for (std::size_t i = 0; i < share.plan.runs.size(); ++i) {
      const auto& run = share.plan.runs[i];
      if (run.baseline) {
        baselines.insert(run.shape->name);
        if (!share.owned[i]) {
          EXPECT_NE(owners[std::find_if(plan.runs.begin(), plan.runs.end(),
                                        [&](const auto& r) { return r.key == run.key; }) -
                           plan.runs.begin()],
                    k);
        }
      } else {
        EXPECT_TRUE(share.owned[i]) << "only baselines are run without being owned";
        shapes_used.insert(run.shape->name);
      }
    }
    for (const auto& shape : shapes_used) {
      EXPECT_EQ(baselines.count(shape), 1u) << "shard " << k << " lacks baseline/" << shape;
    }
    for (std::size_t i = 0; i < share.plan.runs.size(); ++i) {
      if (!share.owned[i]) {
        EXPECT_EQ(shapes_used.count(share.plan.runs[i].shape->name), 1u)
            << "a dependency baseline no own run needs: " << share.plan.runs[i].key;
      }
    }
  }
}

TEST(RunShard, AShardKeepsThePlanOrderBaselinesFirst) {
  const auto plan = builtin_plan();
  const auto share = share_of_plan(plan, run_owners(plan.runs, 3), 2);
  std::vector<std::string> whole_order;
  for (const auto& run : plan.runs) {
    whole_order.push_back(run.key);
  }
  std::size_t at = 0;
  bool past_baselines = false;
  for (const auto& run : share.plan.runs) {
    const auto found =
        std::find(whole_order.begin() + static_cast<long>(at), whole_order.end(), run.key);
    ASSERT_NE(found, whole_order.end()) << run.key << " out of plan order";
    at = static_cast<std::size_t>(found - whole_order.begin());
    past_baselines = past_baselines || !run.baseline;
    EXPECT_TRUE(!run.baseline || !past_baselines) << run.key;
  }
}

TEST(RunShard, MoreShardsThanRunsLeaveSomeShardsWithNothing) {
  const auto plan = plan_runs(builtin_matrix(), {"baseline"}, {"empty"}, {}, 1);
  ASSERT_EQ(plan.runs.size(), 1u);
  const auto owners = run_owners(plan.runs, 3);
  EXPECT_EQ(owners, std::vector<unsigned>{1});
  EXPECT_TRUE(share_of_plan(plan, owners, 2).plan.runs.empty());
}

} // namespace
} // namespace s3fault::gate
