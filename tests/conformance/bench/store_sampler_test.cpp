// --store-pid reads /proc: this test process has memory and threads, and CPU it burns shows.
#include "conformance/bench/store_sampler.hpp"

#include <gtest/gtest.h>

#include <unistd.h>

namespace s3fault::bench {
namespace {

TEST(StoreSampler, ReadsThisProcess) {
  std::string error;
  const auto reading = read_processes({getpid()}, error);
  ASSERT_TRUE(reading) << error;
  EXPECT_GT(reading->rss_bytes, 1024u * 1024);
  EXPECT_GE(reading->threads, 1u);
}

TEST(StoreSampler, SumsSeveralProcesses) {
  std::string error;
  const auto one = read_processes({getpid()}, error);
  const auto two = read_processes({getpid(), getpid()}, error);
  ASSERT_TRUE(one && two) << error;
  EXPECT_EQ(two->threads, 2 * one->threads);
}

TEST(StoreSampler, AProcessThatIsGoneIsNamed) {
  std::string error;
  // PID 2^22 + 1 is above the kernel's pid_max limit (4194304): it never exists.
  EXPECT_FALSE(read_processes({getpid(), 4194305}, error));
  EXPECT_NE(error.find("/proc/4194305"), std::string::npos) << error;
}

TEST(StoreSampler, SeesTheMemoryThreadsAndCpuOfARun) {
  store_sampler sampler({getpid()}, std::chrono::milliseconds(20));
  // Half a second of CPU on this thread, while holding 64 MiB more.
  std::string ballast(64 * 1024 * 1024, 'x');
  volatile std::uint64_t sink = 0;
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
  while (std::chrono::steady_clock::now() < until) {
    for (int i = 0; i < 1000; ++i) {
      sink = sink + static_cast<std::uint64_t>(ballast[static_cast<std::size_t>(i)]);
    }
  }
  const auto usage = sampler.finish();
  EXPECT_TRUE(usage.error.empty()) << usage.error;
  EXPECT_GE(usage.samples, 10u);
  EXPECT_GT(usage.rss_max_mib, 64.0);
  EXPECT_GE(usage.threads_max, 2.0); // this thread and the sampler's
  EXPECT_GT(usage.cpu_mean_percent, 50.0);
  EXPECT_LE(usage.rss_mean_mib, usage.rss_max_mib);
}

} // namespace
} // namespace s3fault::bench
