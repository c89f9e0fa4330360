#pragma once
// What a workload's operation runs with (workload.hpp): the worker's own S3 client (one
// keep-alive connection), the fixtures, and the retries a real client makes (SlowDown, 500,
// 502, 503, 504 and broken connections, full-jitter exponential backoff) while the operation's
// clock takes the time to first byte.
#include "conformance/bench/bench_fixtures.hpp"

#include <chrono>
#include <random>
#include <string>

namespace s3fault::bench {

/// What one operation did, as the caller of a client library would see it.
struct operation_outcome {
  bool ok = false;
  std::chrono::steady_clock::duration latency{}; // start to the last byte, retries included
  std::chrono::steady_clock::duration ttfb{};    // start to the first byte of the answer used
  std::uint64_t bytes = 0;                       // body bytes sent (put) or received
  unsigned retries = 0;
  std::string error; // why it failed: the store's answer, a length or a hash mismatch
  std::string note;  // something the figures do not show, e.g. partNumber ignored
};

class operation_context {
public:
  using clock = std::chrono::steady_clock;

  operation_context(const bench_settings& settings, const bench_fixtures& fixtures,
                    unsigned worker);

  const bench_settings& settings() const { return settings_; }
  const bench_fixtures& fixtures() const { return fixtures_; }
  unsigned worker() const { return worker_; }
  client::s3_client& client() { return client_; }

  /// Starts the operation's clock; again for an operation whose first requests are not timed.
  void start_clock();
  clock::duration elapsed() const { return clock::now() - started_; }

  /// Sends with retries, counts them into `outcome`, and takes the time to first byte from the
  /// operation's first answer (the attempt that gave it started after any retries).
  template <class Send> client::response send_with_retries(Send&& send, operation_outcome& outcome);
  /// The same for a request whose answer is parsed (parsed_response): returns the last answer.
  template <class Send> auto send_parsed_with_retries(Send&& send, operation_outcome& outcome);
  /// PUTs object `index` of the cell's size at `key`, unsigned, with retries.
  client::response put_content(const std::string& key, const cell& c, std::uint64_t index,
                               operation_outcome& outcome);
  /// How a read takes its body: counted and dropped, with its content hash under --verify.
  client::read_options discard_body() const;

private:
  /// Whether `answer` is one to send again after `attempt` attempts.
  bool worth_retrying(const client::response& answer, unsigned attempt) const;
  void note_first_byte(const client::response& answer, clock::time_point attempt_started,
                       operation_outcome& outcome);
  void backoff(unsigned attempt);

  const bench_settings& settings_;
  const bench_fixtures& fixtures_;
  unsigned worker_;
  client::s3_client client_;
  std::mt19937_64 jitter_;
  clock::time_point started_{};
  bool first_byte_seen_ = false;
};

template <class Send>
client::response operation_context::send_with_retries(Send&& send, operation_outcome& outcome) {
  for (unsigned attempt = 1;; ++attempt) {
    const auto attempt_started = clock::now();
    auto answer = send();
    if (!worth_retrying(answer, attempt)) {
      note_first_byte(answer, attempt_started, outcome);
      return answer;
    }
    ++outcome.retries;
    backoff(attempt);
  }
}

template <class Send>
auto operation_context::send_parsed_with_retries(Send&& send, operation_outcome& outcome) {
  decltype(send()) parsed;
  send_with_retries(
      [&] {
        parsed = send();
        return parsed.raw;
      },
      outcome);
  return parsed;
}

} // namespace s3fault::bench
