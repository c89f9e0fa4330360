// A real cgroup v1: the test makes s3fault-test-<pid>-<n> in this machine's memory, pids and
// cpuacct hierarchies, moves a child that holds 32 MiB and runs 3 threads into it, and compares
// what store_probe reads with the child's /proc figures and the cgroup's own files. Skipped, with
// the reason, where those hierarchies are not mounted or not writable.
#include "metrics/store_probe.hpp"

#include "text/text.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <poll.h>
#include <signal.h>
#include <sstream>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace s3fault::metrics {
namespace {

constexpr std::size_t child_bytes = 32 * 1024 * 1024;
constexpr std::uint64_t mib = 1024 * 1024;

std::string whole_file_of(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The number a file holds on its one line ("3\n"); 0 when it holds none.
std::uint64_t number_in_file(const std::string& path) {
  std::string text = whole_file_of(path);
  while (!text.empty() && text.back() == '\n') {
    text.pop_back();
  }
  return text::parse_whole_number(text).value_or(0);
}

/// The value of the line "KEY VALUE" of a memory.stat.
std::uint64_t stat_value(const std::string& path, const std::string& key) {
  std::istringstream lines(whole_file_of(path));
  std::string name;
  std::uint64_t value = 0;
  while (lines >> name >> value) {
    if (name == key) {
      return value;
    }
  }
  return 0;
}

std::uint64_t lines_in_file(const std::string& path) {
  std::istringstream lines(whole_file_of(path));
  std::uint64_t count = 0;
  for (std::string line; std::getline(lines, line);) {
    count += line.empty() ? 0 : 1;
  }
  return count;
}

double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

/// The child: waits for its move into the cgroup (so that what it then uses is charged there),
/// touches 32 MiB, starts 2 threads besides its own, burns 0.2 s of CPU, says so and waits to
/// be killed.
[[noreturn]] void run_cgroup_child(int moved_fd, int ready_fd) {
  char byte = 0;
  if (read(moved_fd, &byte, 1) != 1) {
    _exit(2);
  }
  void* memory =
      mmap(nullptr, child_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) {
    _exit(3);
  }
  std::memset(memory, 1, child_bytes);
  for (int i = 0; i < 2; ++i) {
    std::thread([] {
      for (;;) {
        pause();
      }
    }).detach();
  }
  volatile std::uint64_t sink = 0;
  while (process_cpu_seconds() < 0.2) {
    sink = sink + 1;
  }
  if (write(ready_fd, "r", 1) != 1) {
    _exit(4);
  }
  for (;;) {
    pause();
  }
}

/// The test's cgroups and child, removed and ended however the test ends.
class cgroup_v1_fixture {
public:
  cgroup_v1_fixture() = default;
  cgroup_v1_fixture(const cgroup_v1_fixture&) = delete;
  cgroup_v1_fixture& operator=(const cgroup_v1_fixture&) = delete;
  ~cgroup_v1_fixture() { clean_up(); }

  /// Kills and reaps the child, then removes the cgroups (empty once it is reaped); what could
  /// not be removed, as text.
  std::string clean_up() {
    if (child > 0) {
      kill(child, SIGKILL);
      waitpid(child, nullptr, 0);
      child = -1;
    }
    std::string failures;
    for (const auto& directory : directories) {
      if (rmdir(directory.c_str()) != 0 && errno != ENOENT) {
        failures += "rmdir " + directory + ": " + std::strerror(errno) + "; ";
      }
    }
    directories.clear();
    for (int& fd : fds) {
      if (fd >= 0) {
        close(fd);
        fd = -1;
      }
    }
    return failures;
  }

  std::vector<std::string> directories; // made by the test, in order
  pid_t child = -1;
  int fds[4] = {-1, -1, -1, -1}; // moved: read, write; ready: read, write
};

/// The next cgroup name this process has not used.
std::string fresh_cgroup_name() {
  static int next = 0;
  return "s3fault-test-" + std::to_string(getpid()) + "-" + std::to_string(next++);
}

TEST(StoreProbeCgroupV1, ReadsARealCgroupLikeItsProcessAndFiles) {
  const auto mounts = cgroup_mounts::of_this_system();
  std::vector<const cgroup_mount*> hierarchies;
  for (const char* controller : {"memory", "pids", "cpuacct"}) {
    const auto* mount = mounts.v1_with(controller);
    if (mount == nullptr) {
      GTEST_SKIP() << "no cgroup v1 " << controller << " hierarchy is mounted";
    }
    if (mount->root != "/") {
      GTEST_SKIP() << "the " << controller << " hierarchy shows only " << mount->root;
    }
    hierarchies.push_back(mount);
  }
  const std::string name = fresh_cgroup_name();
  cgroup_v1_fixture fixture;
  for (const auto* mount : hierarchies) {
    const std::string directory = mount->mount_point + "/" + name;
    if (mkdir(directory.c_str(), 0755) != 0) {
      GTEST_SKIP() << "cannot make a cgroup: mkdir " << directory << ": " << std::strerror(errno);
    }
    fixture.directories.push_back(directory);
  }
  const std::string memory_dir = fixture.directories[0];
  const std::string pids_dir = fixture.directories[1];
  const std::string cpuacct_dir = fixture.directories[2];

  ASSERT_EQ(pipe(fixture.fds), 0);
  ASSERT_EQ(pipe(fixture.fds + 2), 0);
  fixture.child = fork();
  ASSERT_GE(fixture.child, 0) << std::strerror(errno);
  if (fixture.child == 0) {
    run_cgroup_child(fixture.fds[0], fixture.fds[3]);
  }
  for (const auto& directory : fixture.directories) {
    std::ofstream(directory + "/cgroup.procs") << fixture.child << "\n" << std::flush;
    ASSERT_EQ(whole_file_of(directory + "/cgroup.procs"), std::to_string(fixture.child) + "\n")
        << "moving the child into " << directory;
  }
  ASSERT_EQ(write(fixture.fds[1], "m", 1), 1);
  pollfd ready{fixture.fds[2], POLLIN, 0};
  // A bounded wait for the child's word, not a sleep: it needs ~0.2 s of CPU.
  ASSERT_EQ(poll(&ready, 1, 60'000), 1) << "the child did not get ready within 60 s";
  char byte = 0;
  ASSERT_EQ(read(fixture.fds[2], &byte, 1), 1) << "the child ended before it was ready";

  const auto probe = store_probe::of_cgroup("/" + name);
  EXPECT_EQ(probe.describe(), "cgroup /" + name + " (v1: memory, pids, cpuacct)");
  std::string error;
  const auto reading = probe.read(error);
  ASSERT_TRUE(reading) << error;
  const auto process = store_probe::of_processes({fixture.child}).read(error);
  ASSERT_TRUE(process) << error;

  // Threads: exact, the child's 3 by /proc, by pids.current and by the lines of tasks.
  EXPECT_EQ(reading->threads, 3u);
  EXPECT_EQ(reading->threads, process->threads);
  EXPECT_EQ(reading->threads, number_in_file(pids_dir + "/pids.current"));
  EXPECT_EQ(reading->threads, lines_in_file(memory_dir + "/tasks"));

  // Memory, within tolerances. The cgroup is charged only for what the child touched after its
  // move: the 32 MiB, its new threads' stacks and page tables, and the pages it copied on
  // write. The kernel charges and counts memory in per-CPU batches (its usage_in_bytes is "a
  // fuzz value", cgroup-v1/memory.rst), and may
  // back the 32 MiB with 2 MiB transparent huge pages, so anon can stray by ~1 MiB below and a
  // few MiB above 32 MiB. The child's RssAnon also holds the pages it shares with this process
  // since the fork (charged to this process's cgroup), so it is the larger of the two.
  // Under the sanitizers (S3FAULT_SANITIZED, tests/run-sanitizers.sh) the child also writes
  // ASan's shadow of what it touches and its allocator's own pages: only the lower bounds hold.
  const bool sanitized = std::getenv("S3FAULT_SANITIZED") != nullptr;
  EXPECT_GE(reading->anon_bytes, child_bytes - 1 * mib);
  if (!sanitized) {
    EXPECT_LE(reading->anon_bytes, child_bytes + 4 * mib);
    EXPECT_LE(reading->memory_bytes, child_bytes + 8 * mib);
  }
  EXPECT_GE(process->anon_bytes + 1 * mib, reading->anon_bytes);
  EXPECT_GE(reading->memory_bytes + 1 * mib, reading->anon_bytes);
  // Read again straight from the files, while the child sleeps: the same within 1 MiB.
  const auto near = [](std::uint64_t a, std::uint64_t b) { return (a > b ? a - b : b - a) <= mib; };
  EXPECT_PRED2(near, reading->memory_bytes, number_in_file(memory_dir + "/memory.usage_in_bytes"));
  EXPECT_PRED2(near, reading->anon_bytes, stat_value(memory_dir + "/memory.stat", "total_rss"));

  // CPU: the child burnt 0.2 s of process CPU time, all but its first few ms in the cgroup;
  // /proc counts in clock ticks (10 ms) and includes those ms, so the two agree within 50 ms.
  EXPECT_GE(reading->cpu_seconds, 0.15);
  EXPECT_NEAR(reading->cpu_seconds, process->cpu_seconds, 0.05);
  EXPECT_NEAR(reading->cpu_seconds,
              static_cast<double>(number_in_file(cpuacct_dir + "/cpuacct.usage")) / 1e9, 0.01);

  // The same cgroup named by a directory of one of its hierarchies.
  const auto by_directory = store_probe::of_cgroup(cpuacct_dir).read(error);
  ASSERT_TRUE(by_directory) << error;
  EXPECT_EQ(by_directory->threads, 3u);

  const std::string failures = fixture.clean_up();
  EXPECT_EQ(failures, "");
  EXPECT_FALSE(probe.read(error));
  EXPECT_NE(error.find("cgroup /" + name + ": cannot read"), std::string::npos) << error;
}

} // namespace
} // namespace s3fault::metrics
