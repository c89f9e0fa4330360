#include "conformance/bench/operation_runner.hpp"

#include "conformance/bench/workload.hpp"

namespace s3fault::bench {

operation_outcome operation_runner::run(const cell& c, std::uint64_t index) {
  operation_outcome outcome;
  context_.start_clock();
  c.op.workload().run(context_, c, index, outcome);
  outcome.latency = context_.elapsed();
  return outcome;
}

} // namespace s3fault::bench
