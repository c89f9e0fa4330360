#include "conformance/origin/origin_counters.hpp"

namespace s3fault::origin {

void origin_counters::record(s3_operation op, unsigned status, std::uint64_t bytes_in,
                             std::uint64_t bytes_out) {
  auto& slot = slots_[static_cast<std::size_t>(op)];
  slot.requests.fetch_add(1, std::memory_order_relaxed);
  if (status >= 400) {
    slot.errors.fetch_add(1, std::memory_order_relaxed);
  }
  slot.bytes_in.fetch_add(bytes_in, std::memory_order_relaxed);
  slot.bytes_out.fetch_add(bytes_out, std::memory_order_relaxed);
}

operation_totals origin_counters::of(s3_operation op) const {
  const auto& slot = slots_[static_cast<std::size_t>(op)];
  return operation_totals{operation_name(op), slot.requests.load(std::memory_order_relaxed),
                          slot.errors.load(std::memory_order_relaxed),
                          slot.bytes_in.load(std::memory_order_relaxed),
                          slot.bytes_out.load(std::memory_order_relaxed)};
}

std::vector<operation_totals> origin_counters::snapshot() const {
  std::vector<operation_totals> out;
  for (std::size_t i = 0; i < operation_count; ++i) {
    auto totals = of(static_cast<s3_operation>(i));
    if (totals.requests > 0) {
      out.push_back(totals);
    }
  }
  return out;
}

} // namespace s3fault::origin
