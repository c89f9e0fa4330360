// Processes are read from /proc (--store-pid): this test process has memory and threads, and
// CPU it burns shows.
#include "metrics/store_sampler.hpp"

#include <gtest/gtest.h>

#include <ctime>
#include <unistd.h>

namespace s3fault::metrics {
namespace {

TEST(StoreSampler, ReadsThisProcess) {
  std::string error;
  const auto reading = store_probe::of_processes({getpid()}).read(error);
  ASSERT_TRUE(reading) << error;
  EXPECT_GT(reading->memory_bytes, 1024u * 1024);
  EXPECT_GT(reading->anon_bytes, 0u);
  EXPECT_LE(reading->anon_bytes, reading->memory_bytes);
  EXPECT_GE(reading->threads, 1u);
}

TEST(StoreSampler, SumsSeveralProcesses) {
  std::string error;
  const auto one = store_probe::of_processes({getpid()}).read(error);
  const auto two = store_probe::of_processes({getpid(), getpid()}).read(error);
  ASSERT_TRUE(one && two) << error;
  EXPECT_EQ(two->threads, 2 * one->threads);
}

TEST(StoreSampler, AProcessThatIsGoneIsNamed) {
  std::string error;
  // PID 2^22 + 1 is above the kernel's pid_max limit (4194304): it never exists.
  EXPECT_FALSE(store_probe::of_processes({getpid(), 4194305}).read(error));
  EXPECT_NE(error.find("/proc/4194305"), std::string::npos) << error;
}

TEST(StoreSampler, DescribesTheProcesses) {
  EXPECT_EQ(store_probe::of_processes({12}).describe(), "PID 12");
  EXPECT_EQ(store_probe::of_processes({12, 13}).describe(), "PIDs 12, 13");
}

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) / 1e9;
}

TEST(StoreSampler, SeesTheMemoryThreadsAndCpuOfARun) {
  const auto wall_start = std::chrono::steady_clock::now();
  store_sampler sampler(store_probe::of_processes({getpid()}), std::chrono::milliseconds(20));
  // 300 ms of CPU on this thread (however long a loaded machine takes to give it), while
  // holding 64 MiB more.
  std::string ballast(64 * 1024 * 1024, 'x');
  volatile std::uint64_t sink = 0;
  const double cpu_start = thread_cpu_seconds();
  while (thread_cpu_seconds() - cpu_start < 0.3) {
    for (int i = 0; i < 1000; ++i) {
      sink = sink + static_cast<std::uint64_t>(ballast[static_cast<std::size_t>(i)]);
    }
  }
  const double burnt = thread_cpu_seconds() - cpu_start;
  const auto usage = sampler.finish();
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  EXPECT_TRUE(usage.error.empty()) << usage.error;
  EXPECT_GE(usage.samples, 5u);
  EXPECT_GT(usage.rss_max_mib, 64.0);
  EXPECT_GT(usage.anon_max_mib, 64.0); // the ballast is anonymous memory
  EXPECT_GE(usage.threads_max, 2.0);   // this thread and the sampler's
  EXPECT_LE(usage.rss_mean_mib, usage.rss_max_mib);
  // The sampled window lies inside `wall` and holds all of `burnt` (less a clock tick or two).
  EXPECT_GE(usage.cpu_mean_percent, (burnt - 0.03) / wall * 100.0)
      << "burnt " << burnt << " s of CPU in " << wall << " s";
  EXPECT_GE(usage.cpu_max_percent, usage.cpu_mean_percent * 0.5);
}

} // namespace
} // namespace s3fault::metrics
