#include "metrics/recent_exchanges.hpp"

#include <algorithm>

namespace s3fault::metrics {

std::vector<recent_exchange> recent_exchanges::newest_first() const {
  std::lock_guard lock(mutex_);
  const auto count = static_cast<std::size_t>(std::min<std::uint64_t>(next_, ring_.size()));
  std::vector<recent_exchange> out;
  out.reserve(count);
  for (std::size_t i = 1; i <= count; ++i) {
    out.push_back(ring_[(next_ - i) % ring_.size()]);
  }
  return out;
}

} // namespace s3fault::metrics
