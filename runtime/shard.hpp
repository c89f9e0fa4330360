#pragma once
// Which part of a job this process does when a launcher runs several copies of it (a CI
// matrix, mpirun, Slurm, a Kubernetes Indexed Job): shard K of N, 1 <= K <= N. There is no
// coordinator: every process derives its part from the same inputs and the parts are merged
// afterwards (`gate merge`, `bench merge`).
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace s3fault::runtime {

struct shard {
  unsigned index = 1; // K, from 1
  unsigned count = 1; // N
  /// Where K/N came from: "--shard 2/3", or the launcher's variables
  /// ("OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=3").
  std::string source = "unsharded";

  bool sharded() const { return count > 1 || source != "unsharded"; }
  /// "2/3"
  std::string text() const;
};

/// Looks a variable up in the environment: its value, or nullopt when unset or empty.
using environment_lookup = std::function<std::optional<std::string>(const std::string&)>;
environment_lookup process_environment();

/// `--shard K/N` or `--shard auto` (with `--shards N` for a Kubernetes Indexed Job, 0: not
/// given). `auto` reads OMPI_COMM_WORLD_RANK/SIZE, PMI_RANK/SIZE, SLURM_PROCID/NTASKS and
/// JOB_COMPLETION_INDEX (ranks count from 0, shards from 1); launchers that are all set must
/// agree. Throws std::invalid_argument with what is wrong and what is allowed.
shard parse_shard(const std::string& text, unsigned shards_option,
                  const environment_lookup& environment);

/// The share of `total` that shard K of N does: total / N, the first total % N shards one more.
std::uint64_t share_of(std::uint64_t total, const shard& part);

/// `path` with every "{shard}" replaced by K ("part-{shard}.json" -> "part-2.json").
std::string expand_shard_path(const std::string& path, const shard& part);

} // namespace s3fault::runtime
