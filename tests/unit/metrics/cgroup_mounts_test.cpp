// Which cgroup file systems a mountinfo text mounts, and where a user's --store-cgroup PATH (a v2
// directory, a v1 directory, a cgroup path) leads: resolved against a temporary directory laid
// out like the hierarchies.
#include "metrics/cgroup_mounts.hpp"

#include "tests/unit/metrics/cgroup_tree.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace s3fault::metrics {
namespace {

// Lines of the /proc/self/mountinfo of the machine these tests were written on, with the
// separate cpu and cpuacct hierarchies replaced by the combined mount most distributions make
// (a line written for the test, with the optional field systemd's shared mounts add).
constexpr const char* machine_mountinfo =
    "21 26 0:20 / /proc rw,relatime - proc proc rw\n"
    "30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
    "41 30 0:38 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid,nodev,noexec,relatime shared:9 - cgroup "
    "cgroup rw,cpu,cpuacct\n"
    "33 30 0:30 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset\n"
    "34 30 0:31 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory\n"
    "38 30 0:35 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids\n"
    "39 30 0:36 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,name=systemd\n"
    "40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n";

TEST(CgroupMounts, ParsesTheV1HierarchiesAndTheV2Mount) {
  const auto mounts = cgroup_mounts::parse(machine_mountinfo);
  ASSERT_EQ(mounts.v1.size(), 5u);
  EXPECT_EQ(mounts.v1[0].mount_point, "/sys/fs/cgroup/cpu,cpuacct");
  EXPECT_EQ(mounts.v1[0].root, "/");
  EXPECT_EQ(mounts.v1[0].controllers, (std::vector<std::string>{"cpu", "cpuacct"}));
  EXPECT_EQ(mounts.v1[4].controllers, (std::vector<std::string>{"name=systemd"}));
  ASSERT_NE(mounts.v1_with("memory"), nullptr);
  EXPECT_EQ(mounts.v1_with("memory")->mount_point, "/sys/fs/cgroup/memory");
  EXPECT_EQ(mounts.v1_with("pids")->mount_point, "/sys/fs/cgroup/pids");
  EXPECT_EQ(mounts.v1_with("cpuacct")->mount_point, "/sys/fs/cgroup/cpu,cpuacct");
  EXPECT_EQ(mounts.v1_with("cpu"), mounts.v1_with("cpuacct"));
  EXPECT_EQ(mounts.v1_with("blkio"), nullptr);
  ASSERT_TRUE(mounts.v2);
  EXPECT_EQ(mounts.v2->mount_point, "/sys/fs/cgroup/unified");
  EXPECT_TRUE(mounts.v2->controllers.empty());
}

TEST(CgroupMounts, ReadsAContainersRootsAndEscapedPaths) {
  // Inside a container the hierarchies show only the container's cgroup; a mount point with a
  // space is written \040.
  const auto mounts = cgroup_mounts::parse(
      "812 805 0:31 /docker/0a1b /sys/fs/cgroup/memory ro,nosuid,nodev,noexec,relatime master:15 "
      "- cgroup cgroup rw,memory\n"
      "813 805 0:37 / /mnt/my\\040cgroups rw,relatime - cgroup2 cgroup2 rw,nsdelegate\n");
  ASSERT_EQ(mounts.v1.size(), 1u);
  EXPECT_EQ(mounts.v1[0].root, "/docker/0a1b");
  EXPECT_EQ(mounts.v1[0].controllers, (std::vector<std::string>{"memory"}));
  ASSERT_TRUE(mounts.v2);
  EXPECT_EQ(mounts.v2->mount_point, "/mnt/my cgroups");
}

TEST(CgroupMounts, ASystemWithoutCgroupsHasNone) {
  const auto mounts =
      cgroup_mounts::parse("21 26 0:20 / /proc rw,relatime - proc proc rw\nnot a mount line\n");
  EXPECT_TRUE(mounts.v1.empty());
  EXPECT_FALSE(mounts.v2);
}

/// A temporary tree with the hierarchies of machine_mountinfo, and one container's cgroup in
/// each: /docker/abc in v1, /system.slice/docker-abc.scope in v2.
class FindCgroup : public ::testing::Test {
protected:
  FindCgroup() {
    const std::string at = tree.root();
    mounts = cgroup_mounts::parse(
        "34 30 0:31 / " + at + "/memory rw,relatime - cgroup cgroup rw,memory\n" + "38 30 0:35 / " +
        at + "/pids rw,relatime - cgroup cgroup rw,pids\n" + "41 30 0:38 / " + at +
        "/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n" + "39 30 0:36 / " +
        at + "/systemd rw,relatime - cgroup cgroup rw,name=systemd\n" + "40 30 0:37 / " + at +
        "/unified rw,relatime - cgroup2 cgroup2 rw\n");
    for (const char* hierarchy : {"memory", "pids", "cpu,cpuacct", "systemd"}) {
      tree.make_directory(std::string(hierarchy) + "/docker/abc");
    }
    tree.make_directory("memory/only-memory");
    tree.write("unified/cgroup.controllers", "hugetlb\n");
    tree.write("unified/system.slice/docker-abc.scope/cgroup.controllers", "");
    tree.make_directory("unified/plain");
  }

  void expect_docker_abc_in_v1(const cgroup_directories& found) const {
    EXPECT_EQ(found.version, 1);
    EXPECT_EQ(found.memory, tree.path("memory/docker/abc"));
    EXPECT_EQ(found.pids, tree.path("pids/docker/abc"));
    EXPECT_EQ(found.cpuacct, tree.path("cpu,cpuacct/docker/abc"));
  }

  /// find_cgroup's refusal of `path`, or "" when it found it.
  std::string refusal(const std::string& path) const { return refusal(path, mounts); }
  static std::string refusal(const std::string& path, const cgroup_mounts& in) {
    try {
      find_cgroup(path, in);
    } catch (const std::invalid_argument& refused) {
      return refused.what();
    }
    return "";
  }

  testing::cgroup_tree tree;
  cgroup_mounts mounts;
};

TEST_F(FindCgroup, AV2DirectoryByItsControllersFile) {
  const auto scope = tree.path("unified/system.slice/docker-abc.scope");
  for (const auto& path : {scope, scope + "/"}) {
    const auto found = find_cgroup(path, mounts);
    EXPECT_EQ(found.version, 2);
    EXPECT_EQ(found.v2, scope);
  }
  // Wherever it is: a copy of a cgroup's files is read as one.
  EXPECT_EQ(find_cgroup(scope, cgroup_mounts{}).v2, scope);
}

TEST_F(FindCgroup, AV1DirectoryInTheMemoryPidsAndCpuacctHierarchies) {
  expect_docker_abc_in_v1(find_cgroup(tree.path("memory/docker/abc"), mounts));
  expect_docker_abc_in_v1(find_cgroup(tree.path("cpu,cpuacct/docker/abc/"), mounts));
  // From a hierarchy of no controller read, the same cgroup in the others.
  expect_docker_abc_in_v1(find_cgroup(tree.path("systemd/docker/abc"), mounts));
}

TEST_F(FindCgroup, ACgroupPathInEachV1Hierarchy) {
  expect_docker_abc_in_v1(find_cgroup("/docker/abc", mounts));
}

TEST_F(FindCgroup, ACgroupPathUnderTheV2MountWhenNoV1HierarchyHasIt) {
  const auto found = find_cgroup("/system.slice/docker-abc.scope", mounts);
  EXPECT_EQ(found.version, 2);
  EXPECT_EQ(found.v2, tree.path("unified/system.slice/docker-abc.scope"));
}

TEST_F(FindCgroup, ACgroupInSomeV1HierarchiesOnly) {
  for (const auto& path : {std::string("/only-memory"), tree.path("memory/only-memory")}) {
    const auto found = find_cgroup(path, mounts);
    EXPECT_EQ(found.version, 1);
    EXPECT_EQ(found.memory, tree.path("memory/only-memory"));
    EXPECT_EQ(found.pids, "");
    EXPECT_EQ(found.cpuacct, "");
  }
}

TEST_F(FindCgroup, ACgroupPathBelowAMountsRoot) {
  // A container's view: its memory hierarchy shows /docker/abc at the mount point.
  tree.make_directory("container/memory/worker");
  const auto inside = cgroup_mounts::parse("812 805 0:31 /docker/abc " + tree.path("container") +
                                           "/memory rw - cgroup cgroup rw,memory\n");
  EXPECT_EQ(find_cgroup("/docker/abc/worker", inside).memory, tree.path("container/memory/worker"));
  EXPECT_EQ(find_cgroup("/docker/abc", inside).memory, tree.path("container/memory"));
  EXPECT_EQ(refusal("/docker/other", inside), "/docker/other: not a cgroup: no " +
                                                  tree.path("container/memory") +
                                                  " (it shows only /docker/abc)");
}

TEST_F(FindCgroup, RefusesAPathThatIsNoCgroupSayingWhereItLooked) {
  const std::string at = tree.root();
  EXPECT_EQ(refusal("/nope"), "/nope: not a cgroup: no " + at + "/memory/nope, " + at +
                                  "/pids/nope, " + at + "/cpu,cpuacct/nope, " + at +
                                  "/unified/nope");
  EXPECT_EQ(refusal(at + "/memory/nope"), at + "/memory/nope: not a cgroup: no " + at +
                                              "/memory/nope, " + at + "/pids/nope, " + at +
                                              "/cpu,cpuacct/nope");
  EXPECT_EQ(refusal(at + "/unified/plain"),
            at + "/unified/plain: not a cgroup: no " + at + "/unified/plain/cgroup.controllers");
  EXPECT_NE(refusal("docker/abc").find("docker/abc: not a cgroup: give a cgroup's directory"),
            std::string::npos)
      << refusal("docker/abc");
  EXPECT_EQ(refusal("/docker/abc", cgroup_mounts{}),
            "/docker/abc: not a cgroup: no cgroup v1 memory, pids or cpuacct hierarchy and no "
            "cgroup2 is mounted (/proc/self/mountinfo)");
}

} // namespace
} // namespace s3fault::metrics
