#pragma once
// The bench's wall clock: when runs start (--start-at) and the times recorded for each run, by
// which the runs of several shards are lined up at merge. It is the system clock, plus an
// offset that only tests set (to play a machine whose clock is wrong), and it is compared once
// with the store's own clock (its Date header), a coarse common reference between machines.
#include "conformance/bench/bench_settings.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace s3fault::bench {

using wall_time = std::chrono::system_clock::time_point;

/// Now, by this bench's clock.
wall_time bench_now(const bench_settings& settings);

/// Microseconds since the Unix epoch.
std::int64_t unix_micros(wall_time time);
wall_time from_unix_micros(std::int64_t micros);

/// Waits until `when` by the bench's clock, or until `stop()` says so (checked every 50 ms).
void sleep_until(const bench_settings& settings, wall_time when, const std::function<bool()>& stop);

/// How far the store's clock is ahead of this bench's (negative: behind), from the Date headers
/// of HEADs of `bucket` around the moment the Date's second changes (up to 1.5 s of looks):
/// within a few tens of milliseconds on a near store. nullopt, with `why`, when the store sent no
/// usable Date.
struct clock_reading {
  std::chrono::milliseconds offset{0};
  std::chrono::milliseconds uncertainty{0}; // the offset is within this of the truth
};
std::optional<clock_reading> store_clock_offset(const bench_settings& settings,
                                                const store_target& store,
                                                const std::string& bucket, std::string& why);

} // namespace s3fault::bench
