#include "conformance/gate/run_shard.hpp"

#include "conformance/s3/content_hash.hpp"

#include <algorithm>
#include <numeric>
#include <set>

namespace s3fault::gate {

std::vector<unsigned> run_owners(const std::vector<planned_run>& runs, unsigned count) {
  std::vector<std::size_t> order(runs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  // A hash order mixes baselines and scenarios, big and small shapes, so every shard gets a
  // similar blend of slow and quick runs; ties (never seen) fall back to the key itself.
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const auto hash_a = s3::content_hash(runs[a].key), hash_b = s3::content_hash(runs[b].key);
    return hash_a != hash_b ? hash_a < hash_b : runs[a].key < runs[b].key;
  });
  std::vector<unsigned> owners(runs.size(), 1);
  for (std::size_t dealt = 0; dealt < order.size(); ++dealt) {
    owners[order[dealt]] = static_cast<unsigned>(dealt % std::max(1u, count)) + 1;
  }
  return owners;
}

shard_share share_of_plan(const run_plan& whole, const std::vector<unsigned>& owners,
                          unsigned index) {
  std::set<const object_shape*> shapes_used;
  for (std::size_t i = 0; i < whole.runs.size(); ++i) {
    if (owners[i] == index && !whole.runs[i].baseline) {
      shapes_used.insert(whole.runs[i].shape);
    }
  }
  shard_share share;
  share.plan.scenarios = whole.scenarios;
  share.plan.shapes = whole.shapes;
  share.plan.unplanned = whole.unplanned;
  for (std::size_t i = 0; i < whole.runs.size(); ++i) {
    const auto& run = whole.runs[i];
    const bool owned = owners[i] == index;
    if (owned || (run.baseline && shapes_used.count(run.shape) > 0)) {
      share.plan.runs.push_back(run);
      share.owned.push_back(owned);
    }
  }
  return share;
}

} // namespace s3fault::gate
