// Counters per operation and status class, retry detection, faults per rule, and the Prometheus
// and JSON renderings of them.
#include "metrics/metrics_report.hpp"
#include "metrics/traffic_metrics.hpp"

#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

namespace s3fault::metrics {
namespace {

exchange_sample get(std::string_view key, unsigned status, std::string_view part = "",
                    std::string_view faults = "", bool failed = false) {
  exchange_sample sample;
  sample.operation = 0;
  sample.bucket = "b";
  sample.key = key;
  sample.part_or_range = part;
  sample.status = status;
  sample.failed = failed || status >= 400;
  sample.faults = faults;
  sample.bytes_out = 1000;
  sample.duration_us = 2000;
  sample.ttfb_us = 500;
  sample.upstream_used = true;
  sample.upstream_reused = true;
  return sample;
}

TEST(TrafficMetrics, CountsPerOperationAndStatusClass) {
  traffic_metrics metrics({"GetObject", "PutObject", "Other"});
  metrics.record(get("k", 200));
  metrics.record(get("k", 206, "part 1"));
  metrics.record(get("missing", 404));
  auto put = get("k", 200);
  put.operation = 1;
  put.bytes_in = 5;
  put.bytes_out = 0;
  metrics.record(put);
  const auto ok = metrics.find(0, 2);
  ASSERT_NE(ok, nullptr);
  EXPECT_EQ(ok->requests.load(), 2u);
  EXPECT_EQ(ok->bytes_out.load(), 2000u);
  EXPECT_EQ(metrics.find(0, 4)->requests.load(), 1u);
  EXPECT_EQ(metrics.find(1, 2)->bytes_in.load(), 5u);
  EXPECT_EQ(metrics.find(0, 5), nullptr);
  EXPECT_EQ(metrics.upstream_reused(), 4u);
}

TEST(TrafficMetrics, WhatThreadsRecordApartIsSummedWhenRead) {
  // Each thread writes its own shard; a reader sees the sum, histograms included.
  traffic_metrics metrics({"GetObject", "Other"});
  constexpr int threads = 4;
  constexpr int each = 1000;
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&metrics, t] {
      for (int i = 0; i < each; ++i) {
        auto sample = get("k" + std::to_string(t), 200);
        sample.duration_us = static_cast<std::uint64_t>(1000 * (t + 1));
        sample.upstream_reused = i % 2 == 0;
        metrics.record(sample);
      }
    });
  }
  for (auto& worker : workers) {
    worker.join();
  }
  const auto ok = metrics.find(0, 2);
  ASSERT_NE(ok, nullptr);
  EXPECT_EQ(ok->requests.load(), std::uint64_t{threads * each});
  EXPECT_EQ(ok->bytes_out.load(), std::uint64_t{threads * each * 1000});
  EXPECT_EQ(ok->duration.count(), std::uint64_t{threads * each});
  EXPECT_EQ(ok->duration.sum_micros(), std::uint64_t{each * (1000 + 2000 + 3000 + 4000)});
  EXPECT_EQ(ok->duration.max_micros(), 4000u);
  EXPECT_EQ(ok->ttfb.count(), std::uint64_t{threads * each});
  EXPECT_EQ(metrics.upstream_reused(), std::uint64_t{threads * each / 2});
  EXPECT_EQ(metrics.upstream_new(), std::uint64_t{threads * each / 2});
  EXPECT_EQ(metrics.find(0, 4), nullptr);
}

TEST(TrafficMetrics, RetriesAreRepeatsOfFailedOrFaultedRequests) {
  traffic_metrics metrics({"GetObject", "Other"});
  metrics.record(get("k", 503, "part 1", "slow:error"));
  metrics.record(get("k", 206, "part 1")); // retry of a failure
  metrics.record(get("k", 206, "part 1")); // after a success: a new read, not a retry
  metrics.record(get("k", 206, "part 2", "cut:truncate"));
  metrics.record(get("k", 206, "part 2")); // retry of a faulted (short) read
  metrics.record(get("other", 206, "part 2"));
  EXPECT_EQ(metrics.find(0, 2)->retries.load(), 2u);
  EXPECT_EQ(metrics.faults_by_rule(),
            (std::map<std::string, std::uint64_t>{{"cut", 1}, {"slow", 1}}));
}

TEST(TrafficMetrics, PrometheusTextHasCountersHistogramsAndGauges) {
  traffic_metrics metrics({"GetObject", "Other"});
  metrics.connection_opened();
  metrics.record(get("k", 200));
  metrics.record(get("k", 200));
  const auto text = prometheus_text(metrics);
  EXPECT_NE(text.find("s3fault_requests_total{operation=\"GetObject\",status_class=\"2xx\"} 2\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# TYPE s3fault_request_duration_seconds histogram"), std::string::npos);
  EXPECT_NE(text.find("s3fault_request_duration_seconds_bucket{operation=\"GetObject\","
                      "le=\"0.001\"} 0\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("s3fault_request_duration_seconds_bucket{operation=\"GetObject\","
                      "le=\"0.0025\"} 2\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("s3fault_request_duration_seconds_count{operation=\"GetObject\"} 2\n"),
            std::string::npos);
  EXPECT_NE(text.find("s3fault_active_connections 1\n"), std::string::npos);
  EXPECT_NE(text.find("s3fault_upstream_connections_total{reuse=\"reused\"} 2\n"),
            std::string::npos);
}

TEST(TrafficMetrics, RuleLoadIsGaugesAndACounterPerRule) {
  rule_load load;
  load.rule = "rustfs-\"admission\"";
  load.in_flight = 3;
  load.peak_in_flight = 4;
  load.refusals = 12;
  const auto text = prometheus_rule_load({load});
  EXPECT_NE(text.find("# TYPE s3fault_rule_in_flight gauge\n"
                      "s3fault_rule_in_flight{rule=\"rustfs-\\\"admission\\\"\"} 3\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# TYPE s3fault_rule_in_flight_peak gauge\n"
                      "s3fault_rule_in_flight_peak{rule=\"rustfs-\\\"admission\\\"\"} 4\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("# TYPE s3fault_rule_refusals_total counter\n"
                      "s3fault_rule_refusals_total{rule=\"rustfs-\\\"admission\\\"\"} 12\n"),
            std::string::npos)
      << text;
  // Without load-shaped rules only the families' HELP and TYPE lines are there.
  const auto empty = prometheus_rule_load({});
  EXPECT_EQ(empty.find("{rule="), std::string::npos);
  EXPECT_NE(empty.find("# TYPE s3fault_rule_refusals_total counter\n"), std::string::npos);
}

TEST(TrafficMetrics, StatsJsonHasQuantiles) {
  traffic_metrics metrics({"GetObject", "Other"});
  for (int i = 1; i <= 100; ++i) {
    auto sample = get("k" + std::to_string(i), 200);
    sample.duration_us = static_cast<std::uint64_t>(i) * 1000;
    metrics.record(sample);
  }
  const auto stats = stats_json(metrics);
  ASSERT_EQ(stats["operations"].size(), 1u);
  const auto& latency = stats["operations"][0]["latency_ms"];
  EXPECT_NEAR(latency["p50"].get<double>(), 50.0, 50.0 / 32);
  EXPECT_NEAR(latency["p99"].get<double>(), 99.0, 99.0 / 32);
  EXPECT_EQ(latency["max"].get<double>(), 100.0);
  EXPECT_EQ(stats["operations"][0]["requests"], 100);
  const auto table = summary_table(metrics);
  EXPECT_NE(table.find("GetObject"), std::string::npos) << table;
}

TEST(TrafficMetrics, StatsRatesAreOverTheLastWindowNotTheWholeRun) {
  // A proxy up for 100 s that moved 100 MiB before second 90 and 1 MiB since: the rate is
  // 0.1 MiB/s over the last 10 s, not 1.01 MiB/s over the run; the totals stay whole.
  constexpr std::uint64_t mib = 1024 * 1024;
  traffic_metrics metrics({"GetObject", "Other"},
                          std::chrono::steady_clock::now() - std::chrono::seconds(100));
  auto sample = get("k", 200);
  sample.bytes_out = 100 * mib;
  metrics.record(sample);
  traffic_history history;
  history.add(80, totals_of(metrics));
  history.add(90, totals_of(metrics));
  sample.bytes_out = mib;
  metrics.record(sample);
  history.add(95, totals_of(metrics)); // too recent to be the baseline of a 10 s window

  const auto stats = stats_json(metrics, &history, 10);
  const auto& gets = stats["operations"][0];
  const double span = stats["rate_window_s"].get<double>();
  EXPECT_NEAR(span, 10.0, 0.5);
  EXPECT_NEAR(gets["throughput_mib_s"].get<double>(), 1.0 / span, 1e-9);
  EXPECT_NEAR(gets["requests_per_s"].get<double>(), 1.0 / span, 1e-9);
  EXPECT_NEAR(stats["throughput_mib_s"].get<double>(), 1.0 / span, 1e-9);
  EXPECT_EQ(gets["bytes_out"], 101 * mib);
  EXPECT_EQ(gets["requests"], 2);
  // Without a history (the report at exit): since the start.
  const auto whole = stats_json(metrics);
  EXPECT_NEAR(whole["rate_window_s"].get<double>(), 100.0, 0.5);
  EXPECT_NEAR(whole["operations"][0]["throughput_mib_s"].get<double>(), 101.0 / 100.0, 0.01);
}

TEST(TrafficHistory, KeepsOnlyTheLastMinutesAndStartsFromZero) {
  traffic_history history(60);
  EXPECT_EQ(history.baseline(5, 10).first, 0.0); // nothing old enough: the start, all zero
  EXPECT_TRUE(history.baseline(5, 10).second.empty());
  for (int at = 1; at <= 200; ++at) {
    history.add(at, {{{"GetObject", "2xx"}, {static_cast<std::uint64_t>(at), 0, 0, {}, {}, {}}}});
  }
  EXPECT_EQ(history.baseline(200, 10).first, 190.0);
  EXPECT_EQ((history.baseline(200, 10).second.at({"GetObject", "2xx"}).requests), 190u);
  EXPECT_EQ(history.baseline(200, 100).first, 0.0); // looks before 140 are gone
}

} // namespace
TEST(TrafficMetrics, RecentPercentilesAreOfTheLastMinuteOnly) {
  // 1000 slow GETs (500 ms) long ago, then 100 fast ones (2 ms) in the last minute: the run's
  // median is slow, the last minute's is fast; and the minute's count is its own.
  traffic_metrics metrics({"GetObject", "Other"},
                          std::chrono::steady_clock::now() - std::chrono::seconds(200));
  auto sample = get("k", 200);
  sample.duration_us = 500'000;
  sample.ttfb_us = 400'000;
  sample.store_ttfb_us = 300'000;
  for (int i = 0; i < 1000; ++i) {
    metrics.record(sample);
  }
  traffic_history history(300, 70);
  history.add(100, totals_of(metrics));
  history.add(135, totals_of(metrics));
  sample.duration_us = 2'000;
  sample.ttfb_us = 1'000;
  sample.store_ttfb_us = 500;
  for (int i = 0; i < 100; ++i) {
    metrics.record(sample);
  }
  history.add(190, totals_of(metrics)); // too recent to be the minute's baseline

  const auto stats = stats_json(metrics, &history, 10, 60);
  const auto& gets = stats["operations"][0];
  EXPECT_NEAR(stats["percentile_window_s"].get<double>(), 65.0, 0.5); // the look at 135
  EXPECT_NEAR(gets["latency_ms"]["p50"].get<double>(), 500.0, 500.0 / 64);
  EXPECT_EQ(gets["recent_latency_ms"]["count"], 100);
  EXPECT_NEAR(gets["recent_latency_ms"]["p50"].get<double>(), 2.0, 2.0 / 64);
  EXPECT_NEAR(gets["recent_latency_ms"]["p99"].get<double>(), 2.0, 2.0 / 64);
  EXPECT_NEAR(gets["recent_ttfb_ms"]["p50"].get<double>(), 1.0, 1.0 / 64);
  EXPECT_NEAR(gets["store_ttfb_ms"]["p50"].get<double>(), 300.0, 300.0 / 64);
  EXPECT_EQ(gets["recent_store_ttfb_ms"]["count"], 100);
  EXPECT_NEAR(gets["recent_store_ttfb_ms"]["p50"].get<double>(), 0.5, 0.5 / 64);
  // The only look old enough has lost its histograms: the window says it is the whole run.
  traffic_history gap(300, 70);
  gap.add(100, totals_of(metrics));
  gap.add(190, totals_of(metrics));
  const auto after_gap = stats_json(metrics, &gap, 10, 60);
  EXPECT_NEAR(after_gap["percentile_window_s"].get<double>(), 200.0, 0.5);
  EXPECT_EQ(after_gap["operations"][0]["recent_latency_ms"]["count"], 1100);
  // Without a history: since the start, like latency_ms.
  const auto whole = stats_json(metrics);
  EXPECT_EQ(whole["operations"][0]["recent_latency_ms"]["count"], 1100);
  EXPECT_NEAR(whole["operations"][0]["recent_latency_ms"]["p50"].get<double>(), 500.0, 8.0);
}

TEST(TrafficHistory, DropsTheHistogramsOfLooksOlderThanThePercentileWindow) {
  traffic_history history(300, 70);
  const bucket_counts some = {{3, 10}, {70, 2}};
  for (int at = 1; at <= 200; ++at) {
    history.add(at,
                {{{"GetObject", "2xx"}, {static_cast<std::uint64_t>(at), 0, 0, some, some, some}}});
  }
  const auto old = history.baseline(200, 100).second.at({"GetObject", "2xx"});
  EXPECT_EQ(old.requests, 100u);
  EXPECT_TRUE(old.duration.empty() && old.ttfb.empty() && old.store_ttfb.empty());
  const auto minute = history.baseline(200, 60).second.at({"GetObject", "2xx"});
  EXPECT_EQ(minute.duration, some);
  EXPECT_EQ(minute.ttfb, some);
  EXPECT_EQ(minute.store_ttfb, some);
}

TEST(LatencyHistogramLooks, QuantilesBetweenTwoLooksCountOnlyWhatCameBetween) {
  latency_histogram h;
  for (int i = 0; i < 90; ++i) {
    h.record(10); // exact below 64 us
  }
  const auto then = h.nonzero_buckets();
  for (int i = 0; i < 9; ++i) {
    h.record(20);
  }
  h.record(50);
  const auto now = h.nonzero_buckets();
  EXPECT_EQ(latency_histogram::count_between(now, then), 10u);
  EXPECT_EQ(latency_histogram::quantile_between(now, then, 0.5), 20u);
  EXPECT_EQ(latency_histogram::quantile_between(now, then, 0.95), 50u);
  EXPECT_EQ(latency_histogram::quantile_between(now, now, 0.5), 0u); // nothing between
  EXPECT_EQ(latency_histogram::quantile_between(now, {}, 0.5), 10u); // since the start
}

} // namespace s3fault::metrics

namespace s3fault::metrics {
namespace {

// GET /history: what moved between consecutive looks over the time between them, per
// operation, with 0 where an operation did not move, and errors counted apart.
TEST(TrafficHistory, RatesPerIntervalAndOperation) {
  traffic_metrics metrics({"GetObject", "PutObject"});
  traffic_history history;
  history.add(10, totals_of(metrics));
  auto ok = get("k", 200);
  ok.bytes_out = 1024 * 1024;
  metrics.record(ok);
  metrics.record(ok);
  metrics.record(get("missing", 404)); // 1000 bytes out
  history.add(12, totals_of(metrics)); // 2 s: 3 GETs, 1 an error
  auto put = get("k", 200);
  put.operation = 1;
  put.bytes_out = 0;
  put.bytes_in = 512 * 1024;
  metrics.record(put);
  history.add(12.5, totals_of(metrics)); // 0.5 s: 1 PUT
  history.add(13.5, totals_of(metrics)); // 1 s: nothing

  const auto json = history_json(history);
  EXPECT_EQ(json["seconds"], nlohmann::json::array({12.0, 12.5, 13.5}));
  const auto& gets = json["operations"]["GetObject"];
  EXPECT_EQ(gets["requests_per_s"], nlohmann::json::array({1.5, 0.0, 0.0}));
  EXPECT_EQ(gets["errors_per_s"], nlohmann::json::array({0.5, 0.0, 0.0}));
  EXPECT_DOUBLE_EQ(gets["mib_per_s"][0].get<double>(), (2.0 * 1024 * 1024 + 1000) / 1048576.0 / 2);
  const auto& puts = json["operations"]["PutObject"];
  EXPECT_EQ(puts["requests_per_s"], nlohmann::json::array({0.0, 2.0, 0.0}));
  EXPECT_EQ(puts["mib_per_s"], nlohmann::json::array({0.0, 1.0, 0.0}));
  EXPECT_EQ(json["operations"].size(), 2u);
  EXPECT_EQ(json["kept_s"], 900.0);
}

} // namespace
} // namespace s3fault::metrics
