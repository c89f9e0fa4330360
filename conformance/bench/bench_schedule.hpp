#pragma once
// When each run of a bench may start. Without --start-at: at once, one after another. With it
// and --duration, every run (each cell's warm-up, then round by round) has a slot of its
// duration plus a margin, laid end to end from the start time, and waits for its slot: shards
// started by one launcher with the same --start-at run the same cell in the same wall-clock
// window, whatever each one's fixtures took. A run that overran its slot makes the next start
// late (merge then finds the windows apart and says so). With --count the runs' lengths are
// unknown: only the first waits for the start time.
#include "conformance/bench/bench_clock.hpp"

#include <chrono>
#include <optional>

namespace s3fault::bench {

/// The margin after every paced run: the last operations' answers, opening the next run's
/// connections, and a machine's scheduling delay.
std::chrono::milliseconds slot_margin(std::chrono::milliseconds run_length);

class run_schedule {
public:
  explicit run_schedule(const bench_settings& settings);

  /// Whether runs have slots (--start-at with --duration).
  bool paced() const { return paced_; }
  /// When the next run, `run_length` long, may start (nullopt: at once), and moves past it.
  std::optional<wall_time> next(std::chrono::milliseconds run_length);

private:
  std::optional<wall_time> start_;
  bool paced_ = false;
  bool first_ = true;
};

} // namespace s3fault::bench
