#include "faults/actions/body_pacing.hpp"

#include <algorithm>

namespace s3fault::faults::actions {

namespace {

/// How long `bytes` take at `rate` bytes per second.
clock::duration time_for(std::uint64_t bytes, std::uint64_t rate) {
  const long double seconds = static_cast<long double>(bytes) / static_cast<long double>(rate);
  return std::chrono::duration_cast<clock::duration>(std::chrono::duration<long double>(seconds));
}

} // namespace

throttle_filter::throttle_filter(std::uint64_t rate)
    : rate_(rate), max_step_(std::max<std::uint64_t>(1, rate / 20)) {}

body_step throttle_filter::on_bytes(std::span<char> bytes, std::uint64_t, clock::time_point now) {
  if (bytes.empty()) {
    return {};
  }
  if (!started_ || now > due_) {
    // Behind schedule (or just starting): pace from now on rather than catch up in a burst.
    started_ = true;
    base_ = now;
    base_bytes_ = passed_;
  }
  const std::uint64_t step = std::min<std::uint64_t>(bytes.size(), max_step_);
  passed_ += step;
  // Due times come from the total since `base_`, so rounding does not add up per step.
  due_ = base_ + time_for(passed_ - base_bytes_, rate_);
  paused_ = paused_ || due_ > now;
  return {.pass = static_cast<std::size_t>(step), .pause = due_ - now};
}

std::optional<length_announcement>
reset_after_filter::announce_length(std::optional<std::uint64_t> declared) {
  resolved_ = true;
  limit_ = at_.resolve(declared);
  return std::nullopt; // the client is told the store's length: the reset is the surprise
}

body_step reset_after_filter::on_bytes(std::span<char> bytes, std::uint64_t offset,
                                       clock::time_point) {
  if (!resolved_) {
    announce_length(std::nullopt); // never told the length: only a byte count can apply
  }
  if (!limit_ || offset + bytes.size() < *limit_) {
    return {.pass = bytes.size()};
  }
  reset_ = true;
  return {.pass = *limit_ > offset ? static_cast<std::size_t>(*limit_ - offset) : 0,
          .end = body_step::ending::reset};
}

} // namespace s3fault::faults::actions
