// The histogram against exact percentiles of known samples: every quantile within the promised
// relative error, exact below 64 us, exact maximum, and buckets that tile the value range.
#include "metrics/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <thread>
#include <vector>

namespace s3fault::metrics {
namespace {

std::uint64_t exact_quantile(std::vector<std::uint64_t> values, double q) {
  std::sort(values.begin(), values.end());
  const auto rank =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::ceil(q * values.size())));
  return values[rank - 1];
}

void expect_within_error(const std::vector<std::uint64_t>& values) {
  latency_histogram histogram;
  for (const auto v : values) {
    histogram.record(v);
  }
  for (const double q : {0.01, 0.1, 0.5, 0.9, 0.99, 0.999, 1.0}) {
    const double exact = static_cast<double>(exact_quantile(values, q));
    const double estimate = static_cast<double>(histogram.quantile(q));
    EXPECT_LE(std::abs(estimate - exact), exact / 32.0 + 0.5)
        << "q=" << q << " exact " << exact << " estimate " << estimate;
  }
  EXPECT_EQ(histogram.max_micros(), *std::max_element(values.begin(), values.end()));
  EXPECT_EQ(histogram.count(), values.size());
}

TEST(LatencyHistogram, LogNormalLatenciesWithinOneThirtySecond) {
  std::mt19937_64 engine(42);
  std::lognormal_distribution<double> latency(std::log(2000.0), 1.2); // ~2 ms, long tail
  std::vector<std::uint64_t> values;
  for (int i = 0; i < 100000; ++i) {
    values.push_back(static_cast<std::uint64_t>(latency(engine)));
  }
  expect_within_error(values);
}

TEST(LatencyHistogram, UniformAndBimodalSamples) {
  std::mt19937_64 engine(7);
  std::uniform_int_distribution<std::uint64_t> uniform(0, 10'000'000);
  std::vector<std::uint64_t> values;
  for (int i = 0; i < 50000; ++i) {
    values.push_back(uniform(engine));
  }
  expect_within_error(values);
  std::vector<std::uint64_t> bimodal;
  for (int i = 0; i < 9000; ++i) {
    bimodal.push_back(300 + i % 50); // fast cache hits
  }
  for (int i = 0; i < 1000; ++i) {
    bimodal.push_back(250'000 + i * 100); // slow store reads
  }
  expect_within_error(bimodal);
}

TEST(LatencyHistogram, SmallValuesAreExact) {
  latency_histogram histogram;
  for (std::uint64_t v = 0; v < 64; ++v) {
    histogram.record(v);
  }
  EXPECT_EQ(histogram.quantile(0.5), 31u);
  EXPECT_EQ(histogram.quantile(1.0), 63u);
  EXPECT_EQ(histogram.count_at_or_below(10), 11u);
}

TEST(LatencyHistogram, BucketsTileTheRange) {
  for (std::size_t b = 0; b + 1 < latency_histogram::bucket_count; ++b) {
    ASSERT_EQ(latency_histogram::bucket_highest(b) + 1, latency_histogram::bucket_lowest(b + 1))
        << b;
    ASSERT_EQ(latency_histogram::bucket_of(latency_histogram::bucket_lowest(b)), b);
    ASSERT_EQ(latency_histogram::bucket_of(latency_histogram::bucket_highest(b)), b);
  }
  EXPECT_EQ(latency_histogram::bucket_of(~0ull), latency_histogram::bucket_count - 1);
}

TEST(LatencyHistogram, EmptyAndConcurrent) {
  latency_histogram histogram;
  EXPECT_EQ(histogram.quantile(0.5), 0u);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&histogram] {
      for (int i = 0; i < 25000; ++i) {
        histogram.record(1000);
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  EXPECT_EQ(histogram.count(), 100000u);
  EXPECT_EQ(histogram.sum_micros(), 100000u * 1000u);
  EXPECT_NEAR(static_cast<double>(histogram.quantile(0.5)), 1000.0, 1000.0 / 32);
}

TEST(LatencyHistogram, PartsAddedFromTheirBucketsEqualTheHistogramOfAllSamples) {
  // bench merge: three processes' histograms, kept as buckets in their reports, summed.
  std::mt19937_64 engine(7);
  std::lognormal_distribution<double> latency(std::log(3000.0), 1.0);
  latency_histogram whole, merged;
  for (int part = 0; part < 3; ++part) {
    latency_histogram one;
    for (int i = 0; i < 5000 + part * 1000; ++i) {
      const auto v = static_cast<std::uint64_t>(latency(engine)) * (part + 1);
      one.record(v);
      whole.record(v);
    }
    merged.add_buckets(one.nonzero_buckets(), one.sum_micros(), one.max_micros());
  }
  EXPECT_EQ(merged.nonzero_buckets(), whole.nonzero_buckets());
  EXPECT_EQ(merged.count(), whole.count());
  EXPECT_EQ(merged.sum_micros(), whole.sum_micros());
  EXPECT_EQ(merged.max_micros(), whole.max_micros());
  for (const double q : {0.5, 0.9, 0.99, 1.0}) {
    EXPECT_EQ(merged.quantile(q), whole.quantile(q)) << q;
  }
}

} // namespace
} // namespace s3fault::metrics
