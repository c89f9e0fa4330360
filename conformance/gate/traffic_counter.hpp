#pragma once
// The traffic one reader run caused, counted from the proxy's exchange reports: requests per S3
// operation, retries, faults injected (and how many of them touched the object), errors, bytes
// each way. Only exchanges on the run's key count, so a killed reader's late exchanges never
// land on the next run.
#include "conformance/gate/run_verdict.hpp"
#include "proxy/exchange_log.hpp"

#include <cstdint>
#include <map>
#include <mutex>
#include <set>
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
  /// Injections that touched the object (fault_touches_object), the ones a verdict rests on.
  std::uint64_t faults_on_object = 0;
  /// Where the other injections landed: "GetObject 416", "HeadObject" (no answer from the store).
  std::set<std::string> faults_elsewhere;
  std::uint64_t errors = 0; // status >= 400, or no complete answer
  std::uint64_t bytes_to_reader = 0;
  std::uint64_t bytes_from_reader = 0;
};

/// Thread-safe: the proxy's workers report, the gate reads between runs.
class traffic_counter {
public:
  /// Counts only exchanges on `bucket`/`key` from now on, starting from zero (and every exchange
  /// in `requests_to_proxy`: a proxy serves one run at a time). `role` says which injections
  /// touched the object.
  void watch(std::string bucket, std::string key, run_role role = run_role::reader);
  /// Called by the proxy for every finished exchange.
  void count(const proxy::exchange_record& exchange);
  traffic snapshot() const;

private:
  mutable std::mutex mutex_;
  std::string bucket_;
  std::string key_;
  run_role role_ = run_role::reader;
  traffic counted_;
  std::map<std::string, bool> last_failed_; // request signature -> did its last attempt fail
};

/// Whether one injected action touched the object, so that a verdict may rest on it. Readers: a
/// body or document fault only on a 2xx GetObject answer (object bytes), a header fault only on
/// a 2xx GetObject or HeadObject answer, a fault before the store or on the request always.
/// Writers: any fault on a request of the upload (PutObject, CreateMultipartUpload, UploadPart,
/// CompleteMultipartUpload) or its answer. `store_status` is the store's own (0: none came).
bool fault_touches_object(run_role role, std::string_view action, std::string_view operation,
                          unsigned store_status);

} // namespace s3fault::gate
