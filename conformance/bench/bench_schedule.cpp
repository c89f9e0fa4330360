#include "conformance/bench/bench_schedule.hpp"

namespace s3fault::bench {

std::chrono::milliseconds slot_margin(std::chrono::milliseconds run_length) {
  return std::chrono::milliseconds(2000) + run_length / 10;
}

run_schedule::run_schedule(const bench_settings& settings)
    : start_(settings.start_at), paced_(settings.start_at && !settings.count) {}

std::optional<wall_time> run_schedule::next(std::chrono::milliseconds run_length) {
  if (!start_ || (!paced_ && !first_)) {
    return std::nullopt;
  }
  first_ = false;
  const wall_time slot = *start_;
  *start_ += run_length + slot_margin(run_length);
  return slot;
}

} // namespace s3fault::bench
