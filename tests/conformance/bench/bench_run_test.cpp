// Whole benches against an embedded origin in this process, directly and through an in-process
// proxy with fault rules: every operation runs and checks what it reads, retries are made and
// counted, wrong bytes and wrong lengths are errors, and the fixtures are gone afterwards.
#include "conformance/bench/bench_clock.hpp"
#include "conformance/bench/bench_runner.hpp"
#include "conformance/origin/embedded_origin.hpp"
#include "faults/config/build_rules.hpp"
#include "proxy/embedded_proxy.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>

namespace s3fault::bench {
namespace {

constexpr std::uint64_t mib = 1024 * 1024;

bench_settings small_bench(const std::string& endpoint) {
  bench_settings settings;
  settings.stores = {
      {"", {.endpoint = endpoint, .credentials = {"s3fault", "s3fault-secret", ""}}, {}}};
  settings.operations = {operation::named("get")};
  settings.sizes = {mib};
  settings.concurrencies = {2};
  settings.count = 8;
  settings.rounds = 1;
  settings.objects = 3;
  settings.part_size = 5 * mib;
  settings.backoff_base = std::chrono::milliseconds(1);
  return settings;
}

double figure_value(const cell_summary& summary, figure f) {
  const auto& s = summary.figures[static_cast<std::size_t>(f)];
  return s ? s->median : -1;
}

/// A proxy in front of `upstream` with rules in the one-line syntax.
std::unique_ptr<proxy::embedded_proxy> proxy_with(const std::string& upstream,
                                                  const std::vector<std::string>& specs) {
  auto proxy = std::make_unique<proxy::embedded_proxy>(upstream);
  auto built = faults::config::build_rules(specs, {}, {});
  EXPECT_TRUE(built.ok());
  proxy->rules()->replace_all(std::move(built.rules));
  return proxy;
}

bool bucket_exists(const std::string& endpoint, const std::string& bucket) {
  client::s3_client store({.endpoint = endpoint, .credentials = {"s3fault", "s3fault-secret", ""}});
  return store.head_bucket(bucket).status == 200;
}

TEST(BenchRun, TheStoresClockIsComparedToAFewTensOfMilliseconds) {
  // The origin's Date comes from this machine's clock: the offset is the one this bench's clock
  // was given, found from the moment the Date's second changes (not its whole second).
  origin::embedded_origin store;
  auto settings = small_bench(store.url());
  client::s3_client(settings.stores[0].client).create_bucket("clock");
  for (const auto offset : {std::chrono::milliseconds(0), std::chrono::milliseconds(5300),
                            std::chrono::milliseconds(-2700)}) {
    settings.test_clock_offset = offset;
    std::string why;
    const auto measured = store_clock_offset(settings, settings.stores[0], "clock", why);
    ASSERT_TRUE(measured) << why;
    EXPECT_NEAR(static_cast<double>(measured->offset.count()), static_cast<double>(-offset.count()),
                static_cast<double>(measured->uncertainty.count()))
        << offset.count();
    // Found where the second changed, not guessed from a whole second (+-500 ms).
    EXPECT_LT(measured->uncertainty, std::chrono::milliseconds(500));
  }
  std::string why;
  const auto nowhere = small_bench("http://127.0.0.1:9");
  EXPECT_FALSE(store_clock_offset(nowhere, nowhere.stores[0], "clock", why));
  EXPECT_NE(why.find("no Date header"), std::string::npos) << why;
}

TEST(BenchRun, EveryOperationRunsChecksAndCleansUp) {
  origin::embedded_origin origin;
  auto settings = small_bench(origin.url());
  settings.operations = {operation::named("put"),           operation::named("get"),
                         operation::named("get-parts"),     operation::named("get-ranges"),
                         operation::named("list"),          operation::named("delete"),
                         operation::named("put-multipart"), operation::named("mix")};
  settings.mix = {{operation::named("get"), 3},
                  {operation::named("put"), 1},
                  {operation::named("put-multipart"), 1}};
  settings.sizes = {mib, 6 * mib}; // 6 MiB: two parts, two ranges of 5 MiB + 1 MiB
  settings.verify = true;
  const auto report = run_bench(settings, nullptr, {});
  ASSERT_EQ(report.summaries.size(), 16u);
  for (const auto& summary : report.summaries) {
    SCOPED_TRACE(describe(summary.measured));
    EXPECT_EQ(summary.first_error, "");
    EXPECT_EQ(figure_value(summary, figure::operations), 8);
    EXPECT_EQ(figure_value(summary, figure::errors), 0);
    EXPECT_EQ(figure_value(summary, figure::retries), 0);
    EXPECT_GT(figure_value(summary, figure::ops_per_second), 0);
    EXPECT_GT(figure_value(summary, figure::latency_p50_ms), 0);
    EXPECT_LE(figure_value(summary, figure::latency_p50_ms),
              figure_value(summary, figure::latency_max_ms));
    EXPECT_EQ(summary.note, "");
  }
  EXPECT_EQ(bench_exit_status(report), 0);
  EXPECT_FALSE(bucket_exists(origin.url(), report.stores[0].bucket));
}

TEST(BenchRun, ListReadsEveryPageOfManyObjects) {
  origin::embedded_origin origin;
  auto settings = small_bench(origin.url());
  settings.operations = {operation::named("list")};
  settings.sizes = {16};
  settings.objects = 2500; // three pages of at most 1000 keys
  settings.count = 2;
  const auto report = run_bench(settings, nullptr, {});
  const auto& summary = report.summaries[0];
  EXPECT_EQ(summary.first_error, "");
  EXPECT_EQ(figure_value(summary, figure::operations), 2);
}

TEST(BenchRun, AListThatLosesAPageIsAnError) {
  // The store's first page claims to be the last: 1000 of 2500 keys.
  origin::embedded_origin origin;
  auto proxy =
      proxy_with(origin.url(), {"xml-set ListBucketResult/IsTruncated false op=ListObjectsV2"});
  auto settings = small_bench(proxy->url());
  settings.operations = {operation::named("list")};
  settings.sizes = {16};
  settings.objects = 2500;
  settings.count = 2;
  const auto report = run_bench(settings, nullptr, {});
  const auto& summary = report.summaries[0];
  EXPECT_EQ(figure_value(summary, figure::errors), 2);
  EXPECT_NE(summary.first_error.find("1000 keys, 2500 were written"), std::string::npos)
      << summary.first_error;
}

TEST(BenchRun, AMultipartPutWithAWrongETagIsAnError) {
  origin::embedded_origin origin;
  auto corrupt_part = proxy_with(origin.url(), {"set-header ETag \"0123\" op=UploadPart"});
  auto settings = small_bench(corrupt_part->url());
  settings.operations = {operation::named("put-multipart")};
  settings.sizes = {6 * mib};
  settings.count = 2;
  const auto wrong_part = run_bench(settings, nullptr, {});
  const auto& parts = wrong_part.summaries[0];
  EXPECT_EQ(figure_value(parts, figure::errors), 2);
  EXPECT_NE(parts.first_error.find("UploadPart 1 of"), std::string::npos) << parts.first_error;

  auto plain_etag = proxy_with(
      origin.url(),
      {"xml-set CompleteMultipartUploadResult/ETag \"0123\" op=CompleteMultipartUpload"});
  settings.stores[0].client.endpoint = plain_etag->url();
  const auto wrong_whole = run_bench(settings, nullptr, {});
  const auto& whole = wrong_whole.summaries[0];
  EXPECT_EQ(figure_value(whole, figure::errors), 2);
  EXPECT_NE(whole.first_error.find("does not end in -2 (the count of parts)"), std::string::npos)
      << whole.first_error;
}

TEST(BenchRun, WarmUpRunsEveryCellBeforeTheRoundsAndIsNotReported) {
  origin::embedded_origin origin;
  std::atomic<unsigned> gets{0};
  proxy::embedded_proxy proxy(origin.url(), [&](const proxy::exchange_record& r) {
    gets += r.method == "GET" && r.target.find("/obj-") != std::string::npos ? 1 : 0;
  });
  auto settings = small_bench(proxy.url());
  settings.warmup = std::chrono::milliseconds(200);
  const auto report = run_bench(settings, nullptr, {});
  ASSERT_EQ(report.runs.size(), 1u);
  ASSERT_TRUE(proxy.wait_reported(std::chrono::seconds(10)));
  // 8 GETs measured; the warm-up's 200 ms of GETs came first and are not in the figures.
  EXPECT_GT(gets.load(), 8u);
  EXPECT_EQ(figure_value(report.summaries[0], figure::operations), 8);
}

// Connections kept from the first run would fix for every round which store thread serves
// which client thread, a state no round could then sample (docs/bench.md, Limits): each run
// opens its own.
TEST(BenchRun, EveryRunOpensItsOwnConnections) {
  origin::embedded_origin origin;
  std::mutex mutex;
  std::set<std::string> peers; // client address:port of each measured GET
  proxy::embedded_proxy proxy(origin.url(), [&](const proxy::exchange_record& r) {
    if (r.method == "GET" && r.target.find("/obj-") != std::string::npos) {
      std::lock_guard lock(mutex);
      peers.insert(r.client);
    }
  });
  auto settings = small_bench(proxy.url());
  settings.rounds = 3; // 2 workers: 2 connections if they were kept, at least 3 if not
  const auto report = run_bench(settings, nullptr, {});
  ASSERT_EQ(report.runs.size(), 3u);
  ASSERT_TRUE(proxy.wait_reported(std::chrono::seconds(10)));
  std::lock_guard lock(mutex);
  EXPECT_GE(peers.size(), 3u);
}

TEST(BenchRun, PrefillFillsTheBucketUpToEachVolumeBeforeItsCells) {
  origin::embedded_origin origin;
  std::mutex mutex;
  std::vector<std::string> order; // "fill" or "get", as the proxy saw them
  std::uint64_t filler_bytes = 0;
  proxy::embedded_proxy proxy(origin.url(), [&](const proxy::exchange_record& r) {
    const std::lock_guard lock(mutex);
    if (r.method == "PUT" && r.target.find("/fill/") != std::string::npos) {
      filler_bytes += r.request_bytes;
      if (order.empty() || order.back() != "fill") {
        order.emplace_back("fill");
      }
    } else if (r.method == "GET" && r.target.find("/obj-") != std::string::npos) {
      if (order.empty() || order.back() != "get") {
        order.emplace_back("get");
      }
    }
  });
  auto settings = small_bench(proxy.url());
  settings.prefill = {0, 20 * mib, 36 * mib}; // 3 fillers, then 2 more (the last one 4 MiB)
  const auto report = run_bench(settings, nullptr, {});
  ASSERT_TRUE(proxy.wait_reported(std::chrono::seconds(10)));
  ASSERT_EQ(report.summaries.size(), 3u);
  EXPECT_EQ(describe(report.summaries[2].measured), "get 1MiB c=2 stored=36MiB");
  EXPECT_EQ(filler_bytes, 36 * mib);
  const std::vector<std::string> expected{"get", "fill", "get", "fill", "get"};
  EXPECT_EQ(order, expected);
  for (const auto& summary : report.summaries) {
    EXPECT_EQ(figure_value(summary, figure::errors), 0) << summary.first_error;
  }
  EXPECT_FALSE(bucket_exists(origin.url(), report.stores[0].bucket));
}

TEST(BenchRun, ThroughputCountsTheBytesRead) {
  origin::embedded_origin origin;
  auto settings = small_bench(origin.url());
  settings.count = 20;
  const auto report = run_bench(settings, nullptr, {});
  ASSERT_EQ(report.runs.size(), 1u);
  const auto& run = report.runs[0];
  EXPECT_EQ(run.bytes, 20 * mib);
  const double expected = 20.0 / run.seconds;
  EXPECT_NEAR(*run.values[static_cast<std::size_t>(figure::mib_per_second)], expected,
              expected * 0.01 + 0.01);
}

TEST(BenchRun, ManyClientsOnOneThreadEachRunTheirShare) {
  // 16 clients as fibers of one event loop, some of them pausing for retries meanwhile.
  origin::embedded_origin origin;
  auto proxy = proxy_with(origin.url(), {"error SlowDown op=GetObject first=4"});
  auto settings = small_bench(proxy->url());
  settings.sizes = {64 * 1024};
  settings.concurrencies = {16};
  settings.client_threads = 1;
  settings.count = 64;
  const auto report = run_bench(settings, nullptr, {});
  ASSERT_EQ(report.summaries.size(), 1u);
  const auto& summary = report.summaries[0];
  EXPECT_EQ(summary.first_error, "");
  EXPECT_EQ(figure_value(summary, figure::operations), 64);
  EXPECT_EQ(figure_value(summary, figure::errors), 0);
  EXPECT_EQ(figure_value(summary, figure::retries), 4);
  EXPECT_EQ(report.runs[0].bytes, 64 * 64 * 1024u);
}

TEST(BenchRun, SlowDownIsRetriedWithBackoffAndCounted) {
  origin::embedded_origin origin;
  auto proxy = proxy_with(origin.url(), {"error SlowDown op=GetObject first=3"});
  auto settings = small_bench(proxy->url());
  settings.concurrencies = {1};
  settings.count = 5;
  const auto report = run_bench(settings, nullptr, {});
  const auto& summary = report.summaries[0];
  EXPECT_EQ(figure_value(summary, figure::retries), 3);
  EXPECT_EQ(figure_value(summary, figure::errors), 0);
  EXPECT_EQ(figure_value(summary, figure::operations), 5);
  EXPECT_EQ(bench_exit_status(report), 0);
}

TEST(BenchRun, AnOperationThatKeepsFailingIsAnError) {
  origin::embedded_origin origin;
  auto proxy = proxy_with(origin.url(), {"error InternalError op=GetObject"});
  auto settings = small_bench(proxy->url());
  settings.concurrencies = {1};
  settings.count = 2;
  settings.max_attempts = 3;
  const auto report = run_bench(settings, nullptr, {});
  const auto& summary = report.summaries[0];
  EXPECT_EQ(figure_value(summary, figure::errors), 2);
  EXPECT_EQ(figure_value(summary, figure::retries), 4); // 2 operations x (3 attempts - 1)
  EXPECT_EQ(figure_value(summary, figure::operations), 0);
  EXPECT_NE(summary.first_error.find("500"), std::string::npos) << summary.first_error;
  EXPECT_NE(summary.first_error.find("InternalError"), std::string::npos) << summary.first_error;
  EXPECT_EQ(bench_exit_status(report), 1);
}

TEST(BenchRun, AShortBodyWithAMatchingLengthIsAnError) {
  origin::embedded_origin origin;
  auto proxy = proxy_with(origin.url(), {"truncate 50% mode=consistent op=GetObject"});
  auto settings = small_bench(proxy->url());
  settings.count = 4;
  const auto report = run_bench(settings, nullptr, {});
  const auto& summary = report.summaries[0];
  EXPECT_EQ(figure_value(summary, figure::errors), 4);
  EXPECT_NE(summary.first_error.find("524288 of 1048576 bytes"), std::string::npos)
      << summary.first_error;
}

TEST(BenchRun, VerificationIsOnByDefaultAndFindsCorruptBytes) {
  origin::embedded_origin origin;
  auto proxy = proxy_with(origin.url(), {"corrupt count=1 op=GetObject"});
  auto settings = small_bench(proxy->url());
  settings.count = 3;
  const auto verified = run_bench(settings, nullptr, {});
  EXPECT_EQ(figure_value(verified.summaries[0], figure::errors), 3);
  EXPECT_NE(verified.summaries[0].first_error.find("differ from the object's (content hash)"),
            std::string::npos)
      << verified.summaries[0].first_error;
  settings.verify = false; // --no-verify: lengths only, and the length is right
  const auto unverified = run_bench(settings, nullptr, {});
  EXPECT_EQ(figure_value(unverified.summaries[0], figure::errors), 0);
}

TEST(BenchRun, AMissingPartsCountIsAnErrorOfGetParts) {
  origin::embedded_origin origin;
  auto proxy = proxy_with(
      origin.url(), {"strip-header x-amz-mp-parts-count op=GetObject,HeadObject query=partNumber"});
  auto settings = small_bench(proxy->url());
  settings.operations = {operation::named("get-parts")};
  settings.sizes = {6 * mib};
  settings.count = 2;
  const auto report = run_bench(settings, nullptr, {});
  const auto& summary = report.summaries[0];
  EXPECT_EQ(figure_value(summary, figure::errors), 2);
  EXPECT_NE(summary.first_error.find("no x-amz-mp-parts-count"), std::string::npos)
      << summary.first_error;
}

TEST(BenchRun, ControlRunsEveryCellTwicePerRoundInAlternatingOrder) {
  origin::embedded_origin origin;
  auto settings = small_bench(origin.url());
  settings.control = true;
  settings.rounds = 2;
  settings.count = 4;
  const auto report = run_bench(settings, nullptr, {});
  ASSERT_EQ(report.runs.size(), 4u);
  EXPECT_EQ(report.runs[0].leg, 0u);
  EXPECT_EQ(report.runs[1].leg, 1u);
  EXPECT_EQ(report.runs[2].leg, 1u); // round 2 starts with the other leg
  EXPECT_EQ(report.runs[3].leg, 0u);
  EXPECT_TRUE(report.summaries[0].noise_percent[static_cast<std::size_t>(figure::mib_per_second)]);
}

TEST(BenchRun, WrongKeysMakeTheStoreUnusable) {
  origin::embedded_origin origin;
  auto settings = small_bench(origin.url());
  settings.stores[0].client.credentials = {"s3fault", "wrong-secret", ""};
  try {
    run_bench(settings, nullptr, {});
    FAIL() << "no store_unusable";
  } catch (const store_unusable& error) {
    EXPECT_NE(std::string(error.what()).find("SignatureDoesNotMatch"), std::string::npos)
        << error.what();
  }
}

TEST(BenchRun, StoreSamplingOfThisProcessHoldingTheOrigin) {
  origin::embedded_origin origin;
  auto settings = small_bench(origin.url());
  settings.count.reset();
  settings.duration = std::chrono::milliseconds(300);
  settings.stores[0].pids = {getpid()};
  const auto report = run_bench(settings, nullptr, {});
  const auto& summary = report.summaries[0];
  EXPECT_GT(figure_value(summary, figure::store_rss_max_mib), 1);
  EXPECT_GE(figure_value(summary, figure::store_threads_max), 4); // origin + workers + sampler
  EXPECT_GT(figure_value(summary, figure::store_cpu_mean_percent), 0);
}

} // namespace
} // namespace s3fault::bench
