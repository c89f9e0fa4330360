#pragma once
// Load-shaped schedules: a rule that fires when the load it sees is over a limit, as real stores
// refuse work under load (RustFS's write admission limit, S3's per-prefix request rates).
//
//   match ──min_body?──> counts (after/until, skip, first, every, times) ──> may inject?
//                                                                               │
//   load: in_flight >= in_flight_over?  no token in the bucket? ──> over? ──────┤
//                                                                               v
//   over and may inject and the dice agree: fire (no slot, no token)
//   otherwise: let through, holding a slot (admission_slot) and taking a token if there is one
//
// The decision (rule_set::schedule_allows) is taken under the rule's schedule_mutex; a slot is
// released by its admission_slot when the exchange's decision is destroyed, however the
// exchange ended.
#include "faults/rule.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace s3fault::faults {

/// One in-flight slot of a rule with `in_flight_over`, held by the exchange_decision of an
/// exchange the rule let through. Move-only; releasing lowers the rule's in-flight count exactly
/// once: on release() or on destruction, whichever comes first.
class admission_slot {
public:
  /// Occupies a slot of `state` (raising in_flight and, when passed, peak_in_flight). Call with
  /// the rule's schedule_mutex held, so that a decision sees the count it checked.
  static admission_slot occupy(std::shared_ptr<rule_state> state);

  admission_slot() = default;
  admission_slot(admission_slot&& other) noexcept;
  admission_slot& operator=(admission_slot&& other) noexcept;
  admission_slot(const admission_slot&) = delete;
  admission_slot& operator=(const admission_slot&) = delete;
  ~admission_slot() { release(); }

  /// Frees the slot; a second call (or the destructor after it) does nothing.
  void release() noexcept;
  bool held() const { return state_ != nullptr; }

private:
  explicit admission_slot(std::shared_ptr<rule_state> state) : state_(std::move(state)) {}
  // Keeps the counters alive when the rule is removed or changed while the exchange runs.
  std::shared_ptr<rule_state> state_;
};

/// A rate schedule's timing in whole nanoseconds, so that a bucket runs without rounding drift.
struct rate_timing {
  clock::duration interval;  // one token's refill time: 1 / rate
  clock::duration tolerance; // (burst - 1) * interval: how far full_at may run ahead of now
};
rate_timing timing_of(const schedule_spec& schedule);

/// True when `bucket` holds a token at `now`.
bool has_token(const token_bucket& bucket, const rate_timing& timing, clock::time_point now);
/// Takes a token from `bucket` (call only when has_token holds).
void take_token(token_bucket& bucket, const rate_timing& timing, clock::time_point now);

/// The bucket a request draws from: "" for the rule, "bucket/dir/" for a prefix (the key up to
/// and including its last '/'; "bucket/" for a key without one), "bucket/key" for a key.
std::string rate_bucket_key(rate_scope scope, const s3_request& request);

/// The request body's declared size: x-amz-decoded-content-length (the payload of an
/// aws-chunked upload) when given, else Content-Length; nullopt when neither is a whole number.
std::optional<std::uint64_t> declared_body_size(const header_lookup& headers);

/// True when a request declaring `declared` body bytes takes part in `schedule` (min_body).
bool takes_part(const schedule_spec& schedule, std::optional<std::uint64_t> declared);

std::string_view rate_scope_name(rate_scope scope); // "rule", "prefix", "key"
std::optional<rate_scope> parse_rate_scope(std::string_view name);

} // namespace s3fault::faults
