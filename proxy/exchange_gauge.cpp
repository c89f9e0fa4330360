#include "proxy/exchange_gauge.hpp"

namespace s3fault::proxy {

void exchange_gauge::begin() {
  const std::lock_guard lock(mutex_);
  ++in_flight_;
}

void exchange_gauge::end() {
  const std::lock_guard lock(mutex_);
  if (--in_flight_ == 0) {
    idle_.notify_all();
  }
}

bool exchange_gauge::wait_idle(std::chrono::milliseconds limit) {
  std::unique_lock lock(mutex_);
  return idle_.wait_for(lock, limit, [this] { return in_flight_ == 0; });
}

std::uint64_t exchange_gauge::in_flight() const {
  const std::lock_guard lock(mutex_);
  return in_flight_;
}

} // namespace s3fault::proxy
