// The timeline on a clock of the test's own: intervals are what moved between looks (requests,
// errors, retries, bytes, histograms); merging keeps counts and percentiles exact; and the cap
// holds over an hour and a day at 1 s, at a coarser resolution that the timeline states.
#include "metrics/timeline.hpp"
#include "metrics/timeline_recorder.hpp"
#include "metrics/timeline_report.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>

namespace s3fault::metrics {
namespace {

const std::vector<std::string> operations = {"GetObject", "PutObject", "HeadObject",
                                             "ListObjectsV2", "DeleteObject"};

exchange_sample sample_of(int operation, unsigned status, std::uint64_t micros,
                          std::uint64_t bytes) {
  exchange_sample sample;
  sample.operation = operation;
  sample.bucket = "b";
  sample.key = "k";
  sample.status = status;
  sample.failed = status >= 400;
  sample.bytes_out = bytes;
  sample.duration_us = micros;
  sample.ttfb_us = micros / 2;
  return sample;
}

TEST(Timeline, AnIntervalIsWhatMovedBetweenTwoLooks) {
  auto traffic = std::make_shared<traffic_metrics>(operations);
  auto kept = std::make_shared<timeline>(1.0);
  timeline_recorder recorder(traffic, std::nullopt, kept);
  recorder.look(0);
  traffic->record(sample_of(0, 200, 1000, 1024 * 1024));
  traffic->record(sample_of(0, 200, 3000, 1024 * 1024));
  traffic->record(sample_of(1, 503, 2000, 0));
  recorder.look(1);
  recorder.look(2); // nothing moved
  traffic->record(sample_of(0, 200, 5000, 2 * 1024 * 1024));
  recorder.look(3);

  const auto intervals = kept->intervals();
  ASSERT_EQ(intervals.size(), 3u);
  const auto& first = intervals[0].operations;
  EXPECT_EQ(first.at("GetObject").requests, 2u);
  EXPECT_EQ(first.at("GetObject").bytes, 2u * 1024 * 1024);
  EXPECT_EQ(first.at("GetObject").errors, 0u);
  EXPECT_EQ(first.at("PutObject").errors, 1u);
  EXPECT_EQ(latency_histogram::count_between(first.at("GetObject").latency, {}), 2u);
  EXPECT_TRUE(intervals[1].operations.empty());
  const auto& third = intervals[2].operations.at("GetObject");
  EXPECT_EQ(third.requests, 1u);
  // Only the third interval's request: 5 ms within the histogram's 1.6 %.
  EXPECT_NEAR(static_cast<double>(latency_histogram::quantile_between(third.latency, {}, 0.5)),
              5000, 80);
  EXPECT_DOUBLE_EQ(intervals[2].start, 2);
  EXPECT_DOUBLE_EQ(intervals[2].end, 3);
}

TEST(Timeline, MergingAddsCountsAndKeepsPercentilesExact) {
  latency_histogram all;
  timeline_interval a{0, 1, {}, store_interval{100, 50, 10, 1.0, 20}, ""};
  timeline_interval b{1, 3, {}, store_interval{80, 70, 12, 2.0, 50}, ""};
  for (std::uint64_t v = 100; v < 200; ++v) {
    latency_histogram one;
    one.record(v * 100);
    all.record(v * 100);
    auto& side = v < 150 ? a : b;
    auto& op = side.operations["GetObject"];
    op.requests += 1;
    op.latency = latency_histogram::counts_added(op.latency, one.nonzero_buckets());
  }
  const auto both = merged(a, b);
  EXPECT_EQ(both.start, 0);
  EXPECT_EQ(both.end, 3);
  EXPECT_EQ(both.operations.at("GetObject").requests, 100u);
  for (const double q : {0.5, 0.9, 0.99}) {
    EXPECT_EQ(latency_histogram::quantile_between(both.operations.at("GetObject").latency, {}, q),
              all.quantile(q))
        << q;
  }
  ASSERT_TRUE(both.store);
  EXPECT_EQ(both.store->memory_bytes, 100u); // peaks
  EXPECT_EQ(both.store->anon_bytes, 70u);
  EXPECT_EQ(both.store->threads, 12u);
  EXPECT_DOUBLE_EQ(both.store->cpu_seconds, 2.0);  // the later one's
  EXPECT_DOUBLE_EQ(both.store->cpu_percent, 40.0); // (20 * 1 + 50 * 2) / 3
}

/// Runs `seconds` one-second intervals of steady traffic on every operation (latencies spread
/// over a few hundred buckets, as real traffic's are) and returns the timeline.
std::shared_ptr<timeline> run_for(int seconds, std::size_t cap) {
  auto traffic = std::make_shared<traffic_metrics>(operations);
  auto kept = std::make_shared<timeline>(1.0, cap);
  timeline_recorder recorder(traffic, std::nullopt, kept);
  std::mt19937_64 random(7);
  std::lognormal_distribution<double> latency(std::log(20000.0), 0.8);
  recorder.look(0);
  for (int second = 1; second <= seconds; ++second) {
    for (int op = 0; op < static_cast<int>(operations.size()); ++op) {
      for (int request = 0; request < 20; ++request) {
        traffic->record(sample_of(op, request == 0 ? 500 : 200,
                                  static_cast<std::uint64_t>(latency(random)), 4096));
      }
    }
    recorder.look(second);
  }
  return kept;
}

/// This process's resident memory (VmRSS), in KiB.
std::uint64_t resident_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("VmRSS:", 0) == 0) {
      return std::stoull(line.substr(6));
    }
  }
  return 0;
}

TEST(Timeline, AnHourAtOneSecondStaysUnderTheCapAndSaysItsResolution) {
  const std::size_t cap = timeline::default_byte_cap;
  const auto resident_before = resident_kib();
  const auto kept = run_for(3600, cap);
  const auto resident_after = resident_kib();
  std::cout << "an hour at 1 s, 5 operations, 100 requests a second: " << kept->intervals().size()
            << " intervals kept at " << kept->resolution_seconds() << " s, "
            << kept->bytes_kept() / 1024 << " KiB of " << cap / 1024 << " KiB; resident memory "
            << resident_before / 1024 << " -> " << resident_after / 1024 << " MiB\n";
  EXPECT_LE(kept->bytes_kept(), cap);
  // What the process holds after the hour is the timeline and the traffic's histograms: bounded
  // by the cap and a margin, not the hour. Not under the sanitizers (S3FAULT_SANITIZED), whose
  // shadow memory and quarantine make resident memory meaningless (tests/run-sanitizers.sh).
  if (std::getenv("S3FAULT_SANITIZED") == nullptr) {
    EXPECT_LT(resident_after - std::min(resident_after, resident_before), 3 * cap / 1024);
  }
  EXPECT_EQ(kept->resolution_seconds(), 1.0); // an hour of this traffic fits whole
  // Under a cap a quarter of that, the same hour is kept at a coarser resolution.
  const auto small = std::make_shared<timeline>(1.0, kept->bytes_kept() / 4);
  for (auto interval : kept->intervals()) {
    small->add(std::move(interval));
  }
  EXPECT_LE(small->bytes_kept(), kept->bytes_kept() / 4);
  EXPECT_GE(small->resolution_seconds(), 4.0);
  const auto intervals = small->intervals();
  // The whole hour is still there, every request of it.
  EXPECT_DOUBLE_EQ(intervals.front().start, 0);
  EXPECT_DOUBLE_EQ(intervals.back().end, 3600);
  std::uint64_t requests = 0, errors = 0;
  for (const auto& interval : intervals) {
    for (const auto& [name, traffic] : interval.operations) {
      requests += traffic.requests;
      errors += traffic.errors;
    }
  }
  EXPECT_EQ(requests, 3600u * 100);
  EXPECT_EQ(errors, 3600u * 5);
  const auto json = timeline_json(record_of(*small, ""));
  EXPECT_EQ(json["resolution_s"], small->resolution_seconds());
}

TEST(Timeline, ADayAtOneSecondStaysUnderTheDefaultCap) {
  // A second of the hour's traffic, added 86400 times (recording a day of traffic would take
  // the test minutes; the cap only sees the intervals).
  const auto second = run_for(1, timeline::default_byte_cap)->intervals().front();
  auto kept = std::make_shared<timeline>(1.0);
  for (int at = 0; at < 24 * 3600; ++at) {
    auto next = second;
    next.start = at;
    next.end = at + 1;
    kept->add(std::move(next));
  }
  std::cout << "a day at 1 s: " << kept->intervals().size() << " intervals at "
            << kept->resolution_seconds() << " s, " << kept->bytes_kept() / 1024 << " KiB of "
            << timeline::default_byte_cap / 1024 << " KiB\n";
  EXPECT_LE(kept->bytes_kept(), timeline::default_byte_cap);
  EXPECT_DOUBLE_EQ(kept->intervals().back().end, 24 * 3600);
}

TEST(Timeline, TheJsonReadsBackToTheSameIntervals) {
  const auto kept = run_for(30, timeline::default_byte_cap);
  const auto record = record_of(*kept, "PID 1");
  std::string error;
  const auto back = read_timeline_json(nlohmann::json::parse(timeline_json(record).dump()), error);
  ASSERT_TRUE(back) << error;
  ASSERT_EQ(back->intervals.size(), record.intervals.size());
  EXPECT_EQ(back->store, "PID 1");
  for (std::size_t i = 0; i < record.intervals.size(); ++i) {
    const auto& was = record.intervals[i].operations.at("GetObject");
    const auto& is = back->intervals[i].operations.at("GetObject");
    EXPECT_EQ(is.requests, was.requests);
    EXPECT_EQ(is.latency, was.latency);
    EXPECT_EQ(is.ttfb, was.ttfb);
  }
}

TEST(Timeline, ABrokenJsonIsRefusedNamingTheField) {
  std::string error;
  auto json = timeline_json(record_of(*run_for(2, timeline::default_byte_cap), ""));
  json["intervals"][1]["operations"]["GetObject"]["latency_buckets"] = "no";
  EXPECT_FALSE(read_timeline_json(json, error));
  EXPECT_EQ(error, "timeline.intervals[1].operations.GetObject.latency_buckets: a list of "
                   "[bucket, count] pairs is required");
}

TEST(Timeline, TheCsvHasARowPerIntervalAndOperation) {
  const auto kept = run_for(3, timeline::default_byte_cap);
  const auto csv = timeline_csv(record_of(*kept, ""));
  std::size_t lines = 0;
  for (const char c : csv) {
    lines += c == '\n';
  }
  EXPECT_EQ(lines, 1u + 3 * operations.size());
  // Each second's 500 is followed by a request for the same key: counted as a retry.
  EXPECT_EQ(csv.rfind("start_s,end_s,operation,requests,errors,retries,mib_per_s,", 0), 0u);
  EXPECT_NE(csv.find("\n2.000,3.000,GetObject,20,1,1,0.078,"), std::string::npos) << csv;
}

} // namespace
} // namespace s3fault::metrics
