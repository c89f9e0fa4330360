#include "faults/load_schedule.hpp"

#include "text/text.hpp"

#include <cmath>

namespace s3fault::faults {

admission_slot admission_slot::occupy(std::shared_ptr<rule_state> state) {
  const std::uint64_t now_held = state->in_flight.fetch_add(1, std::memory_order_relaxed) + 1;
  // Only decisions raise the count and they hold the mutex, so no other raise runs between the
  // increment and this comparison: the peak is exact.
  if (now_held > state->peak_in_flight.load(std::memory_order_relaxed)) {
    state->peak_in_flight.store(now_held, std::memory_order_relaxed);
  }
  return admission_slot(std::move(state));
}

admission_slot::admission_slot(admission_slot&& other) noexcept : state_(std::move(other.state_)) {}

admission_slot& admission_slot::operator=(admission_slot&& other) noexcept {
  if (this != &other) {
    release();
    state_ = std::move(other.state_);
  }
  return *this;
}

void admission_slot::release() noexcept {
  if (state_) {
    state_->in_flight.fetch_sub(1, std::memory_order_relaxed);
    state_.reset();
  }
}

rate_timing timing_of(const schedule_spec& schedule) {
  // The parser keeps rate within 0.001..1e6 and burst within 1..1e6, so both fit in 64 bits.
  const double seconds_per_token = 1.0 / schedule.rate.value_or(1.0);
  const auto in_nanoseconds = [](double seconds) {
    return std::chrono::duration_cast<clock::duration>(
        std::chrono::nanoseconds(std::llround(seconds * 1e9)));
  };
  rate_timing timing{};
  timing.interval = in_nanoseconds(seconds_per_token);
  timing.tolerance = in_nanoseconds((schedule.bucket_size() - 1.0) * seconds_per_token);
  return timing;
}

bool has_token(const token_bucket& bucket, const rate_timing& timing, clock::time_point now) {
  // full_at - now is the refill still owed; the bucket has a whole token while that is at most
  // (burst - 1) tokens' worth.
  return bucket.full_at <= now || bucket.full_at - now <= timing.tolerance;
}

void take_token(token_bucket& bucket, const rate_timing& timing, clock::time_point now) {
  bucket.full_at = std::max(bucket.full_at, now) + timing.interval;
}

std::string rate_bucket_key(rate_scope scope, const s3_request& request) {
  switch (scope) {
  case rate_scope::rule:
    return {};
  case rate_scope::prefix: {
    const std::size_t slash = request.key.rfind('/');
    return request.bucket + "/" +
           (slash == std::string::npos ? std::string() : request.key.substr(0, slash + 1));
  }
  case rate_scope::key:
    return request.bucket + "/" + request.key;
  }
  return {};
}

std::optional<std::uint64_t> declared_body_size(const header_lookup& headers) {
  if (!headers) {
    return std::nullopt;
  }
  const auto read = [&](std::string_view name) -> std::optional<std::uint64_t> {
    const auto value = headers(name);
    if (!value) {
      return std::nullopt;
    }
    return text::parse_whole_number<std::uint64_t>(text::trim(*value));
  };
  if (const auto decoded = read("x-amz-decoded-content-length")) {
    return decoded;
  }
  return read("content-length");
}

bool takes_part(const schedule_spec& schedule, std::optional<std::uint64_t> declared) {
  return !schedule.min_body || declared.value_or(0) >= *schedule.min_body;
}

std::string_view rate_scope_name(rate_scope scope) {
  switch (scope) {
  case rate_scope::rule:
    return "rule";
  case rate_scope::prefix:
    return "prefix";
  case rate_scope::key:
    return "key";
  }
  return "rule";
}

std::optional<rate_scope> parse_rate_scope(std::string_view name) {
  for (const auto scope : {rate_scope::rule, rate_scope::prefix, rate_scope::key}) {
    if (name == rate_scope_name(scope)) {
      return scope;
    }
  }
  return std::nullopt;
}

} // namespace s3fault::faults
