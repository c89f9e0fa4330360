#pragma once
// Which runs of a gate plan shard K of N makes (`s3fault gate --shard K/N`). Every process of a
// sharded gate computes the same split from the plan alone, without talking to the others:
//
//   plan's runs ──order by XXH3-64 of the key──> dealt round-robin to shards 1..N (the owners)
//   shard K makes: the runs it owns + the baseline of every shape they use (a "dependency": it
//   decides NOT_JUDGED here; `gate merge` takes the owner's baseline for the verdict)
//
// The split depends on the selected runs' keys only (never on --jobs or the machine), so the
// shards' runs are disjoint, cover the plan, and differ in number by one at most.
#include "conformance/gate/run_plan.hpp"

#include <string>
#include <vector>

namespace s3fault::gate {

/// The shard (1..count) that owns each of `runs`, in the same order.
std::vector<unsigned> run_owners(const std::vector<planned_run>& runs, unsigned count);

/// The runs one shard makes.
struct shard_share {
  run_plan plan;           // `whole` reduced to them, in plan order (the baselines first)
  std::vector<bool> owned; // per plan.runs: owned, or a dependency baseline
};

/// Shard `index`'s share of `whole`, given every run's owner (run_owners).
shard_share share_of_plan(const run_plan& whole, const std::vector<unsigned>& owners,
                          unsigned index);

} // namespace s3fault::gate
