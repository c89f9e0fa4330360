#pragma once
// One bench worker: its operation context (its own S3 client, retries, the operation's clock)
// and the timing of each operation, which its cell's workload runs (workload.hpp).
#include "conformance/bench/operation_context.hpp"

namespace s3fault::bench {

class operation_runner {
public:
  operation_runner(const bench_settings& settings, const bench_fixtures& fixtures, unsigned worker)
      : context_(settings, fixtures, worker) {}

  /// Runs operation number `index` of `c` (its workload picks the object) and times it.
  operation_outcome run(const cell& c, std::uint64_t index);
  /// Replaces the worker's connection with a new one, opened now (a failure is left to the next
  /// operation, which tries again and reports it).
  void reconnect() { context_.client().reconnect(); }

private:
  operation_context context_;
};

} // namespace s3fault::bench
