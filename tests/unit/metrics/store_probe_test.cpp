// A cgroup's figures from its files, on copies with the kernel's formats in a temporary directory:
// v2 (memory.current, memory.stat, pids.current, cpu.stat, cgroup.threads) and v1
// (memory.usage_in_bytes, memory.stat, pids.current, tasks, cpuacct.usage), whole or in part.
#include "metrics/store_probe.hpp"

#include "tests/unit/metrics/cgroup_tree.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>

namespace s3fault::metrics {
namespace {

// memory.stat of a v2 cgroup (Linux 6.x), cut short: "anon" comes first, and other keys end or
// start with "anon".
constexpr const char* v2_memory_stat = "anon 104857600\n"
                                       "file 41943040\n"
                                       "kernel 3145728\n"
                                       "kernel_stack 294912\n"
                                       "pagetables 811008\n"
                                       "sock 0\n"
                                       "shmem 0\n"
                                       "file_mapped 12582912\n"
                                       "anon_thp 0\n"
                                       "inactive_anon 104726528\n"
                                       "active_anon 131072\n"
                                       "inactive_file 20971520\n";

constexpr const char* v2_cpu_stat = "usage_usec 2500000\n"
                                    "user_usec 2000000\n"
                                    "system_usec 500000\n"
                                    "nr_periods 0\n"
                                    "nr_throttled 0\n"
                                    "throttled_usec 0\n"
                                    "nr_bursts 0\n"
                                    "burst_usec 0\n";

// memory.stat of a v1 cgroup, cut short: the cgroup's own figures, then with its descendants'
// ("total_"); "total_rss_huge" follows "total_rss".
constexpr const char* v1_memory_stat = "cache 10653696\n"
                                       "rss 3112960\n"
                                       "rss_huge 0\n"
                                       "shmem 0\n"
                                       "mapped_file 8273920\n"
                                       "total_cache 31195648\n"
                                       "total_rss 73400320\n"
                                       "total_rss_huge 2097152\n"
                                       "total_shmem 0\n";

/// A v2 cgroup's directory with the files of a container running 7 threads.
class CgroupV2Probe : public ::testing::Test {
protected:
  CgroupV2Probe() {
    tree.write("scope/cgroup.controllers", "cpuset cpu io memory hugetlb pids rdma misc\n");
    tree.write("scope/memory.current", "157286400\n");
    tree.write("scope/memory.stat", v2_memory_stat);
    tree.write("scope/pids.current", "7\n");
    tree.write("scope/cpu.stat", v2_cpu_stat);
    tree.write("scope/cgroup.threads", "4101\n4102\n4107\n");
  }
  store_reading read_scope() const {
    std::string error;
    const auto reading = store_probe::of_cgroup(scope, cgroup_mounts{}).read(error);
    EXPECT_TRUE(reading) << error;
    return reading.value_or(store_reading{});
  }

  testing::cgroup_tree tree;
  std::string scope = tree.path("scope");
};

TEST_F(CgroupV2Probe, ReadsEachFigureFromItsFile) {
  const auto reading = read_scope();
  EXPECT_EQ(reading.memory_bytes, 157286400u);
  EXPECT_EQ(reading.anon_bytes, 104857600u);
  EXPECT_EQ(reading.threads, 7u);
  EXPECT_DOUBLE_EQ(reading.cpu_seconds, 2.5);
  EXPECT_EQ(store_probe::of_cgroup(scope, cgroup_mounts{}).describe(), "cgroup " + scope + " (v2)");
}

TEST_F(CgroupV2Probe, CountsCgroupThreadsWithoutThePidsController) {
  std::filesystem::remove(tree.path("scope/pids.current"));
  EXPECT_EQ(read_scope().threads, 3u);
}

TEST_F(CgroupV2Probe, LacksMemoryWithoutTheMemoryController) {
  std::filesystem::remove(tree.path("scope/memory.current"));
  std::filesystem::remove(tree.path("scope/memory.stat"));
  const auto probe = store_probe::of_cgroup(scope, cgroup_mounts{});
  EXPECT_FALSE(probe.figures().memory);
  EXPECT_FALSE(probe.figures().anon);
  EXPECT_TRUE(probe.figures().threads && probe.figures().cpu);
  EXPECT_EQ(probe.describe(), "cgroup " + scope + " (v2; no memory.current: no memory figures)");
  const auto reading = read_scope();
  EXPECT_EQ(reading.memory_bytes, 0u);
  EXPECT_EQ(reading.threads, 7u);
}

TEST_F(CgroupV2Probe, AMalformedFileIsNamed) {
  tree.write("scope/cpu.stat", "user_usec 2000000\n");
  tree.write("scope/pids.current", "max\n");
  std::string error;
  EXPECT_FALSE(store_probe::of_cgroup(scope, cgroup_mounts{}).read(error));
  EXPECT_EQ(error, "cgroup " + scope + ": " + scope + "/pids.current: 'max' is not a whole number");
  tree.write("scope/pids.current", "7\n");
  EXPECT_FALSE(store_probe::of_cgroup(scope, cgroup_mounts{}).read(error));
  EXPECT_EQ(error, "cgroup " + scope + ": " + scope + "/cpu.stat: no usage_usec line");
}

/// Memory, pids and cpu,cpuacct hierarchies holding /docker/abc, and /only-memory in memory.
class CgroupV1Probe : public ::testing::Test {
protected:
  CgroupV1Probe() {
    mounts = cgroup_mounts::parse(
        "34 30 0:31 / " + tree.path("memory") + " rw - cgroup cgroup rw,memory\n" +
        "38 30 0:35 / " + tree.path("pids") + " rw - cgroup cgroup rw,pids\n" + "41 30 0:38 / " +
        tree.path("cpu,cpuacct") + " rw shared:9 - cgroup cgroup rw,cpu,cpuacct\n");
    tree.write("memory/docker/abc/memory.usage_in_bytes", "104857600\n");
    tree.write("memory/docker/abc/memory.stat", v1_memory_stat);
    tree.write("memory/docker/abc/tasks", "4101\n4102\n");
    tree.write("pids/docker/abc/pids.current", "9\n");
    tree.write("pids/docker/abc/tasks", "4101\n4102\n");
    tree.write("cpu,cpuacct/docker/abc/cpuacct.usage", "2500000000\n");
    tree.write("memory/only-memory/memory.usage_in_bytes", "4096\n");
    tree.write("memory/only-memory/memory.stat", v1_memory_stat);
    tree.write("memory/only-memory/tasks", "17\n18\n19\n");
  }

  testing::cgroup_tree tree;
  cgroup_mounts mounts;
};

TEST_F(CgroupV1Probe, ReadsEachHierarchysFiles) {
  const auto probe = store_probe::of_cgroup("/docker/abc", mounts);
  EXPECT_EQ(probe.describe(), "cgroup /docker/abc (v1: memory, pids, cpuacct)");
  std::string error;
  const auto reading = probe.read(error);
  ASSERT_TRUE(reading) << error;
  EXPECT_EQ(reading->memory_bytes, 104857600u);
  EXPECT_EQ(reading->anon_bytes, 73400320u);
  EXPECT_EQ(reading->threads, 9u); // pids.current: with the cgroups below
  EXPECT_DOUBLE_EQ(reading->cpu_seconds, 2.5);
}

TEST_F(CgroupV1Probe, ReadsWhatTheHierarchiesItIsInGive) {
  const auto probe = store_probe::of_cgroup("/only-memory", mounts);
  EXPECT_EQ(probe.describe(), "cgroup /only-memory (v1: memory; not in pids, cpuacct: threads "
                              "from tasks, no CPU time)");
  EXPECT_TRUE(probe.figures().memory && probe.figures().threads);
  EXPECT_FALSE(probe.figures().cpu);
  std::string error;
  const auto reading = probe.read(error);
  ASSERT_TRUE(reading) << error;
  EXPECT_EQ(reading->memory_bytes, 4096u);
  EXPECT_EQ(reading->threads, 3u);
  EXPECT_EQ(reading->cpu_seconds, 0.0);
}

TEST_F(CgroupV1Probe, ARemovedCgroupReadsAsAnErrorNamingIt) {
  const auto probe = store_probe::of_cgroup("/docker/abc", mounts);
  std::filesystem::remove_all(tree.path("memory/docker/abc"));
  std::string error;
  EXPECT_FALSE(probe.read(error));
  EXPECT_EQ(error, "cgroup /docker/abc: cannot read " +
                       tree.path("memory/docker/abc/memory.usage_in_bytes") + " (was it removed?)");
}

TEST_F(CgroupV1Probe, RefusesAPathThatIsNoCgroup) {
  try {
    store_probe::of_cgroup("/nope", mounts);
    ADD_FAILURE() << "/nope was taken for a cgroup";
  } catch (const std::invalid_argument& refused) {
    EXPECT_EQ(std::string(refused.what()), "/nope: not a cgroup: no " + tree.path("memory/nope") +
                                               ", " + tree.path("pids/nope") + ", " +
                                               tree.path("cpu,cpuacct/nope"));
  }
}

TEST(StoreProbe, IsACopyableValue) {
  auto probe = store_probe::of_processes({1});
  const auto copy = probe;
  probe = store_probe::of_processes({2, 3});
  EXPECT_EQ(copy.describe(), "PID 1");
  EXPECT_EQ(probe.describe(), "PIDs 2, 3");
}

} // namespace
} // namespace s3fault::metrics
