#pragma once
// replaced-between-reads: the object is replaced after the reader's first successful GetObject
// of it. Called on the proxy's only worker thread, so the reader's next request waits until the
// new object is in. It counts the GETs that came after, since a reader that made none never met
// the replacement.
#include "conformance/client/s3_client.hpp"
#include "conformance/gate/object_shapes.hpp"
#include "proxy/exchange_log.hpp"

#include <cstdint>
#include <mutex>
#include <string>

namespace s3fault::gate {

/// What a run's replacement came to.
struct replacement_outcome {
  bool replaced = false;         // the reader's first successful GET came, and the object changed
  std::uint64_t reads_after = 0; // GetObject exchanges on the key that ended after that
};

class replace_trigger {
public:
  void arm(client::client_config store, std::string bucket, std::string key,
           const object_shape* shape, const std::string* replacement);
  /// Stops replacing; returns what the run's replacement came to.
  replacement_outcome disarm();
  void observe(const proxy::exchange_record& exchange);

private:
  std::mutex mutex_;
  bool armed_ = false;
  replacement_outcome outcome_;
  client::client_config store_;
  std::string bucket_, key_;
  const object_shape* shape_ = nullptr;
  const std::string* replacement_ = nullptr;
};

} // namespace s3fault::gate
