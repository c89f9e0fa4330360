#pragma once
// The traffic one reader run caused, counted from the proxy's exchange reports: requests per S3
// operation, retries, faults injected, errors, bytes each way. Only exchanges on the run's key
// count, so a killed reader's late exchanges never land on the next run.
#include "proxy/exchange_log.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

namespace s3fault::gate {

struct traffic {
  std::uint64_t requests = 0;          // on the run's key
  std::uint64_t requests_to_proxy = 0; // every exchange since watch(): bucket requests too
  std::map<std::string, std::uint64_t> by_operation; // "GetObject" -> 3
  /// Requests that repeat the operation, key and part/range of one that failed (an error status,
  /// a fault, a short or reset body).
  std::uint64_t retries = 0;
  std::uint64_t faults_injected = 0;
  std::uint64_t errors = 0; // status >= 400, or no complete answer
  std::uint64_t bytes_to_reader = 0;
  std::uint64_t bytes_from_reader = 0;
};

/// Thread-safe: the proxy's workers report, the gate reads between runs.
class traffic_counter {
public:
  /// Counts only exchanges on `bucket`/`key` from now on, starting from zero (and every exchange
  /// in `requests_to_proxy`: a proxy serves one run at a time).
  void watch(std::string bucket, std::string key);
  /// Called by the proxy for every finished exchange.
  void count(const proxy::exchange_record& exchange);
  traffic snapshot() const;

private:
  mutable std::mutex mutex_;
  std::string bucket_;
  std::string key_;
  traffic counted_;
  std::map<std::string, bool> last_failed_; // request signature -> did its last attempt fail
};

} // namespace s3fault::gate
