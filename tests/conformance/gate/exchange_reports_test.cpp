// The gate counts a run's traffic only after the proxy has reported every exchange it began: a
// reader can hold its whole answer, and exit, before the proxy's session resumes to report it
// (CI once saw a reader's only request missing, and the gate called it a reader that never ran).
#include "conformance/client/s3_client.hpp"
#include "conformance/origin/embedded_origin.hpp"
#include "proxy/embedded_proxy.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <thread>

namespace s3fault::gate {
namespace {

using namespace std::chrono_literals;

TEST(ExchangeGauge, IdleOnlyWhenEveryHoldHasEnded) {
  proxy::exchange_gauge gauge;
  EXPECT_TRUE(gauge.wait_idle(0ms));
  std::promise<void> release;
  std::promise<void> held;
  std::thread exchange([&] {
    const proxy::exchange_gauge::hold hold(gauge);
    held.set_value();
    release.get_future().wait();
  });
  held.get_future().wait();
  EXPECT_EQ(gauge.in_flight(), 1u);
  EXPECT_FALSE(gauge.wait_idle(20ms));
  release.set_value();
  EXPECT_TRUE(gauge.wait_idle(60s));
  EXPECT_EQ(gauge.in_flight(), 0u);
  exchange.join();
}

TEST(ExchangeGauge, ProxyIsNotReportedUntilItsLastExchangeWasReported) {
  origin::embedded_origin origin;
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  std::atomic<int> reported{0};
  proxy::embedded_proxy proxy(origin.url(), [&](const proxy::exchange_record&) {
    released.wait(); // the session that has sent the answer but not yet reported it
    ++reported;
  });
  client::s3_client client(
      {.endpoint = proxy.url(), .credentials = {"s3fault", "s3fault-secret", ""}});
  ASSERT_EQ(client.head_bucket("no-such-bucket").status, 404); // the whole answer is here
  EXPECT_EQ(reported.load(), 0);
  EXPECT_FALSE(proxy.wait_reported(20ms));
  release.set_value();
  EXPECT_TRUE(proxy.wait_reported(60s));
  EXPECT_EQ(reported.load(), 1);
}

} // namespace
} // namespace s3fault::gate
