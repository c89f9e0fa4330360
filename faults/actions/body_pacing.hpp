#pragma once
// Body filters shared by a response action and its request twin: throttle / request-throttle
// and reset-after / request-reset-after differ only in which body they see.
#include "faults/fault_action.hpp"

#include <cstdint>

namespace s3fault::faults::actions {

/// Paces a body to `rate` bytes per second on average. Each step passes at most 50 ms worth of
/// bytes and pauses until the bytes passed so far are due; time the body spent waiting
/// elsewhere (a slow store, a slow client) is not saved up for a burst later.
class throttle_filter final : public body_filter {
public:
  explicit throttle_filter(std::uint64_t rate);
  body_step on_bytes(std::span<char> bytes, std::uint64_t offset, clock::time_point now) override;
  bool changed_body() const override { return paused_; }

private:
  bool paused_ = false;
  std::uint64_t rate_;
  std::uint64_t max_step_;
  bool started_ = false;
  clock::time_point base_; // when the bytes from base_bytes_ on started to be due
  std::uint64_t base_bytes_ = 0;
  std::uint64_t passed_ = 0;
  clock::time_point due_; // when the bytes passed so far are all due
};

/// Passes the first `limit` bytes of a body, then resets the connection.
class reset_after_filter final : public body_filter {
public:
  explicit reset_after_filter(std::uint64_t limit) : limit_(limit) {}
  body_step on_bytes(std::span<char> bytes, std::uint64_t offset, clock::time_point now) override;
  bool changed_body() const override { return reset_; }

private:
  std::uint64_t limit_;
  bool reset_ = false;
};

} // namespace s3fault::faults::actions
