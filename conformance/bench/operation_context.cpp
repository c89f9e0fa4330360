#include "conformance/bench/operation_context.hpp"

#include "conformance/client/socket_wait.hpp"

#include <algorithm>

namespace s3fault::bench {
namespace {

bool retryable(const client::response& answer) {
  if (answer.failure) {
    // Our own findings are not the store's fault; everything else (resets, timeouts, short
    // bodies) is what SDKs retry.
    const auto& ec = answer.failure.ec;
    return ec != client::client_errc::body_over_cap && ec != client::client_errc::sink_aborted &&
           ec != client::client_errc::local_io && ec != client::client_errc::invalid_request;
  }
  if (answer.status == 500 || answer.status == 502 || answer.status == 503 ||
      answer.status == 504) {
    return true;
  }
  return answer.error &&
         (answer.error->code == "SlowDown" || answer.error->code == "InternalError");
}

} // namespace

operation_context::operation_context(const bench_settings& settings, const bench_fixtures& fixtures,
                                     unsigned worker)
    : settings_(settings), fixtures_(fixtures), worker_(worker), client_(fixtures.store().client),
      jitter_(settings.seed * 7919 + worker) {}

void operation_context::start_clock() {
  started_ = clock::now();
  first_byte_seen_ = false;
}

bool operation_context::worth_retrying(const client::response& answer, unsigned attempt) const {
  return retryable(answer) && attempt < settings_.max_attempts;
}

void operation_context::note_first_byte(const client::response& answer,
                                        clock::time_point attempt_started,
                                        operation_outcome& outcome) {
  if (!first_byte_seen_ && answer.head_received()) {
    outcome.ttfb = (attempt_started - started_) + answer.timing.first_byte;
    first_byte_seen_ = true;
  }
}

void operation_context::backoff(unsigned attempt) {
  const long long doubled = settings_.backoff_base.count() * (1LL << std::min(attempt - 1, 20u));
  const long long ceiling = std::min<long long>(settings_.backoff_cap.count(), doubled);
  std::uniform_int_distribution<long long> pause(0, ceiling);
  client::pause_for(std::chrono::milliseconds(pause(jitter_))); // a fiber's pause frees its thread
}

client::response operation_context::put_content(const std::string& key, const cell& c,
                                                std::uint64_t index, operation_outcome& outcome) {
  client::put_options options;
  options.payload = client::payload_signing::unsigned_payload;
  return send_with_retries(
      [&] {
        return client_.put_object(fixtures_.bucket(), key,
                                  client::body_source::from_view(fixtures_.content(c.size, index)),
                                  options);
      },
      outcome);
}

client::read_options operation_context::discard_body() const {
  client::read_options read;
  read.target = client::body_target::discard();
  read.content_hash = settings_.verify;
  return read;
}

} // namespace s3fault::bench
