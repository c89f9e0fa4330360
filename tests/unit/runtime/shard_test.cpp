#include "runtime/shard.hpp"

#include <gtest/gtest.h>

#include <map>

namespace s3fault::runtime {
namespace {

environment_lookup environment(std::map<std::string, std::string> variables) {
  return [variables](const std::string& name) -> std::optional<std::string> {
    const auto found = variables.find(name);
    return found == variables.end() ? std::nullopt : std::optional<std::string>(found->second);
  };
}

std::string refusal(const std::string& text, unsigned shards,
                    std::map<std::string, std::string> variables = {}) {
  try {
    parse_shard(text, shards, environment(std::move(variables)));
  } catch (const std::invalid_argument& refused) {
    return refused.what();
  }
  return "accepted";
}

TEST(ParseShard, TakesKOfN) {
  const auto part = parse_shard("2/3", 0, environment({{"SLURM_PROCID", "0"}}));
  EXPECT_EQ(part.index, 2u);
  EXPECT_EQ(part.count, 3u);
  EXPECT_EQ(part.source, "--shard 2/3");
  EXPECT_EQ(part.text(), "2/3");
  EXPECT_TRUE(part.sharded());
  EXPECT_TRUE(parse_shard("1/1", 0, environment({})).sharded());
  EXPECT_FALSE(shard{}.sharded());
}

TEST(ParseShard, RefusesKOutsideOneToN) {
  EXPECT_EQ(refusal("0/3", 0), "--shard 0/3: shard 0 is outside 1..3");
  EXPECT_EQ(refusal("4/3", 0), "--shard 4/3: shard 4 is outside 1..3");
  EXPECT_EQ(refusal("1/0", 0), "--shard 1/0: the number of shards is 0; it must be at least 1");
  for (const char* bad : {"", "3", "a/b", "1/", "/2", "1/2/3", "-1/2", "1.5/2"}) {
    EXPECT_NE(refusal(bad, 0).find("expected K/N"), std::string::npos) << bad;
  }
}

TEST(ParseShard, AutoCountsRanksFromZero) {
  const auto mpirun = parse_shard(
      "auto", 0, environment({{"OMPI_COMM_WORLD_RANK", "2"}, {"OMPI_COMM_WORLD_SIZE", "3"}}));
  EXPECT_EQ(mpirun.text(), "3/3");
  EXPECT_EQ(mpirun.source, "OMPI_COMM_WORLD_RANK=2 OMPI_COMM_WORLD_SIZE=3");
  EXPECT_EQ(parse_shard("auto", 0, environment({{"PMI_RANK", "0"}, {"PMI_SIZE", "4"}})).text(),
            "1/4");
  EXPECT_EQ(
      parse_shard("auto", 0, environment({{"SLURM_PROCID", "1"}, {"SLURM_NTASKS", "2"}})).text(),
      "2/2");
  const auto indexed = parse_shard("auto", 5, environment({{"JOB_COMPLETION_INDEX", "4"}}));
  EXPECT_EQ(indexed.text(), "5/5");
  EXPECT_EQ(indexed.source, "JOB_COMPLETION_INDEX=4 --shards 5");
}

TEST(ParseShard, AutoTakesAgreeingLaunchersAndRefusesDisagreeingOnes) {
  const auto both = parse_shard("auto", 0,
                                environment({{"OMPI_COMM_WORLD_RANK", "1"},
                                             {"OMPI_COMM_WORLD_SIZE", "2"},
                                             {"SLURM_PROCID", "1"},
                                             {"SLURM_NTASKS", "2"}}));
  EXPECT_EQ(both.text(), "2/2");
  EXPECT_EQ(both.source,
            "OMPI_COMM_WORLD_RANK=1 OMPI_COMM_WORLD_SIZE=2; SLURM_PROCID=1 SLURM_NTASKS=2");
  EXPECT_EQ(refusal("auto", 0,
                    {{"OMPI_COMM_WORLD_RANK", "1"},
                     {"OMPI_COMM_WORLD_SIZE", "2"},
                     {"SLURM_PROCID", "0"},
                     {"SLURM_NTASKS", "1"}}),
            "--shard auto: the launchers' variables disagree: OMPI_COMM_WORLD_RANK=1 "
            "OMPI_COMM_WORLD_SIZE=2 is shard 2/2, SLURM_PROCID=0 SLURM_NTASKS=1 is shard 1/1");
}

TEST(ParseShard, AutoRefusesWhatItCannotUse) {
  EXPECT_NE(refusal("auto", 0).find("no launcher's variables are set"), std::string::npos);
  EXPECT_EQ(refusal("auto", 0, {{"JOB_COMPLETION_INDEX", "1"}}),
            "--shard auto: JOB_COMPLETION_INDEX=1 (a Kubernetes Indexed Job) gives the index "
            "only; say how many shards with --shards N");
  EXPECT_EQ(refusal("auto", 0, {{"PMI_RANK", "1"}}),
            "--shard auto: PMI_RANK=1 (MPICH or Slurm's PMI) but PMI_SIZE is not set");
  EXPECT_EQ(refusal("auto", 0, {{"PMI_RANK", "x"}, {"PMI_SIZE", "2"}}),
            "--shard auto: PMI_RANK=x (MPICH or Slurm's PMI) is not a whole number");
  EXPECT_EQ(refusal("auto", 2, {{"JOB_COMPLETION_INDEX", "2"}}),
            "--shard auto: JOB_COMPLETION_INDEX=2 --shards 2: shard 3 is outside 1..2");
}

TEST(ShareOf, SplitsATotalWithTheRemainderOnTheFirstShards) {
  EXPECT_EQ(share_of(64, {1, 4, ""}), 16u);
  std::uint64_t sum = 0;
  for (unsigned k = 1; k <= 3; ++k) {
    sum += share_of(13, {k, 3, ""});
  }
  EXPECT_EQ(sum, 13u);
  EXPECT_EQ(share_of(13, {1, 3, ""}), 5u);
  EXPECT_EQ(share_of(13, {2, 3, ""}), 4u);
  EXPECT_EQ(share_of(2, {3, 3, ""}), 0u);
}

TEST(ExpandShardPath, ReplacesEveryPlaceholder) {
  EXPECT_EQ(expand_shard_path("part-{shard}.json", {2, 3, ""}), "part-2.json");
  EXPECT_EQ(expand_shard_path("{shard}/r-{shard}", {10, 12, ""}), "10/r-10");
  EXPECT_EQ(expand_shard_path("plain.json", {1, 2, ""}), "plain.json");
}

} // namespace
} // namespace s3fault::runtime
