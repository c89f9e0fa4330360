#pragma once
// How many exchanges a proxy is serving, for callers that must know every finished exchange
// has been reported: a reader can read the last byte of its answer and exit before the proxy's
// session resumes to report the exchange, so the gate waits for the gauge to reach zero before
// it counts a run's traffic (else a run that made requests looks like one that made none).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace s3fault::proxy {

class exchange_gauge {
public:
  /// Held for one exchange, from its request head until it has been reported.
  class hold {
  public:
    explicit hold(exchange_gauge& gauge) : gauge_(gauge) { gauge_.begin(); }
    ~hold() { gauge_.end(); }
    hold(const hold&) = delete;
    hold& operator=(const hold&) = delete;

  private:
    exchange_gauge& gauge_;
  };

  /// True once no exchange is in flight; false when `limit` passed first.
  bool wait_idle(std::chrono::milliseconds limit);
  std::uint64_t in_flight() const;

private:
  void begin();
  void end();

  mutable std::mutex mutex_;
  std::condition_variable idle_;
  std::uint64_t in_flight_ = 0;
};

} // namespace s3fault::proxy
