#pragma once
// One bench worker: its own S3 client (one keep-alive connection) and the code of each timed
// operation, with the retries a real client makes (SlowDown, 500, 502, 503, 504 and broken
// connections, full-jitter exponential backoff) and the checks of what came back: the length of
// every read, and its SHA-256 with --verify.
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

class operation_runner {
public:
  operation_runner(const bench_settings& settings, const bench_fixtures& fixtures, unsigned worker);

  /// Runs operation number `index` of `c` (it picks the object) and times it.
  operation_outcome run(const cell& c, std::uint64_t index);
  /// Replaces the worker's connection with a new one, opened now (a failure is left to the next
  /// operation, which tries again and reports it).
  void reconnect() { client_.reconnect(); }

private:
  using clock = std::chrono::steady_clock;
  /// Sends with retries, counts them into `outcome`, and takes the time to first byte from the
  /// operation's first answer (the attempt that gave it started after any retries).
  template <class Send> client::response send_with_retries(Send&& send, operation_outcome& outcome);
  /// The same for a request whose answer is parsed (parsed_response): returns the last answer.
  template <class Send> auto send_parsed_with_retries(Send&& send, operation_outcome& outcome);
  /// PUTs object `index` of the cell's size at `key`, unsigned, with retries.
  client::response put_content(const std::string& key, const cell& c, std::uint64_t index,
                               operation_outcome& outcome);
  void backoff(unsigned attempt);

  void run_put(const cell& c, std::uint64_t index, operation_outcome& outcome);
  void run_get(const cell& c, std::uint64_t index, operation_outcome& outcome);
  void run_get_parts(const cell& c, std::uint64_t index, operation_outcome& outcome);
  void run_get_ranges(const cell& c, std::uint64_t index, operation_outcome& outcome);
  void run_list(const cell& c, operation_outcome& outcome);
  void run_delete(const cell& c, std::uint64_t index, operation_outcome& outcome);
  void run_put_multipart(const cell& c, std::uint64_t index, operation_outcome& outcome);

  const bench_settings& settings_;
  const bench_fixtures& fixtures_;
  unsigned worker_;
  client::s3_client client_;
  std::mt19937_64 jitter_;
  clock::time_point started_{};
  bool first_byte_seen_ = false;
};

} // namespace s3fault::bench
