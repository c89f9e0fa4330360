#pragma once
// Body filters shared by a response action and its request twin: throttle / request-throttle
// and reset-after / request-reset-after differ only in which body they see.
#include "faults/fault_action.hpp"
#include "faults/values.hpp"

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

/// Passes the first bytes of a body, a count or a fraction of its declared length, then resets
/// the connection. A fraction of a body whose length is not declared (chunked, delimited by
/// close) names no byte: the body passes whole and the filter changes nothing.
class reset_after_filter final : public body_filter {
public:
  explicit reset_after_filter(size_or_fraction at) : at_(at) {}
  std::optional<length_announcement>
  announce_length(std::optional<std::uint64_t> declared) override;
  body_step on_bytes(std::span<char> bytes, std::uint64_t offset, clock::time_point now) override;
  bool changed_body() const override { return reset_; }

private:
  size_or_fraction at_;
  bool resolved_ = false;
  std::optional<std::uint64_t> limit_;
  bool reset_ = false;
};

} // namespace s3fault::faults::actions
