#pragma once
// Timelines whose truth is known, for the drift and page tests: `count` intervals of 1 s, each
// with `requests` GetObject requests of 1 MiB whose latency is lognormal around
// `median_us(second)` (sigma 0.5), recorded into the histogram's buckets.
#include "metrics/timeline.hpp"

#include <cmath>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <vector>

namespace s3fault::metrics::synthetic {

inline std::vector<timeline_interval>
synthetic_timeline(std::size_t count, int requests, std::uint64_t seed,
                   const std::function<double(std::size_t)>& median_us) {
  std::mt19937_64 random(seed);
  std::normal_distribution<double> noise(0, 0.5);
  std::vector<timeline_interval> out;
  for (std::size_t second = 0; second < count; ++second) {
    std::map<std::uint32_t, std::uint64_t> buckets;
    for (int r = 0; r < requests; ++r) {
      const auto micros = static_cast<std::uint64_t>(median_us(second) * std::exp(noise(random)));
      ++buckets[static_cast<std::uint32_t>(latency_histogram::bucket_of(micros))];
    }
    timeline_interval interval;
    interval.start = static_cast<double>(second);
    interval.end = interval.start + 1;
    auto& traffic = interval.operations["GetObject"];
    traffic.requests = static_cast<std::uint64_t>(requests);
    traffic.bytes = traffic.requests * 1024 * 1024;
    traffic.latency.assign(buckets.begin(), buckets.end());
    out.push_back(std::move(interval));
  }
  return out;
}

} // namespace s3fault::metrics::synthetic
