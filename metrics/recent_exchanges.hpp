#pragma once
// The last exchanges the proxy handled, for the dashboard's list: a small ring under a mutex.
// Its entries keep their strings' storage, so that once warm a new exchange copies into them
// without allocating (for fields of ordinary length).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::metrics {

struct recent_exchange {
  std::chrono::system_clock::time_point at; // when it ended
  std::string method, target, operation, error_code, faults;
  unsigned status = 0;
  std::uint64_t bytes_in = 0, bytes_out = 0;
  double duration_ms = 0;
};

class recent_exchanges {
public:
  explicit recent_exchanges(std::size_t kept = 50) : ring_(kept) {}

  /// Fills the oldest slot: `fill` gets it to overwrite.
  template <class Fill> void add(Fill&& fill) {
    std::lock_guard lock(mutex_);
    fill(ring_[next_ % ring_.size()]);
    ++next_;
  }

  /// Newest first.
  std::vector<recent_exchange> newest_first() const;

private:
  mutable std::mutex mutex_;
  std::vector<recent_exchange> ring_;
  std::uint64_t next_ = 0; // exchanges added so far
};

} // namespace s3fault::metrics
