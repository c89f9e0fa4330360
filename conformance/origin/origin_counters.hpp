#pragma once
// What the origin did, per S3 operation: requests, error answers, body bytes in and out.
// Lock-free (relaxed atomics): every worker thread adds, tests and reports read a snapshot.
#include "conformance/origin/request_router.hpp"

#include <array>
#include <atomic>
#include <cstdint>
#include <string_view>
#include <vector>

namespace s3fault::origin {

struct operation_totals {
  std::string_view operation; // S3 API name
  std::uint64_t requests = 0;
  std::uint64_t errors = 0; // answered with a 4xx or 5xx
  std::uint64_t bytes_in = 0;
  std::uint64_t bytes_out = 0;
};

class origin_counters {
public:
  void record(s3_operation op, unsigned status, std::uint64_t bytes_in, std::uint64_t bytes_out);
  operation_totals of(s3_operation op) const;
  /// Operations with at least one request, in enum order.
  std::vector<operation_totals> snapshot() const;

private:
  struct slot {
    std::atomic<std::uint64_t> requests{0};
    std::atomic<std::uint64_t> errors{0};
    std::atomic<std::uint64_t> bytes_in{0};
    std::atomic<std::uint64_t> bytes_out{0};
  };
  static constexpr std::size_t operation_count = faults::s3_operation_count;
  std::array<slot, operation_count> slots_;
};

} // namespace s3fault::origin
