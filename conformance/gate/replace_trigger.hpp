#pragma once
// replaced-between-reads: the object is replaced after the reader's first successful GetObject
// of it. Called on the proxy's only worker thread, so the reader's next request waits until the
// new object is in.
#include "conformance/client/s3_client.hpp"
#include "conformance/gate/object_shapes.hpp"
#include "proxy/exchange_log.hpp"

#include <mutex>
#include <string>

namespace s3fault::gate {

class replace_trigger {
public:
  void arm(client::client_config store, std::string bucket, std::string key,
           const object_shape* shape, const std::string* replacement);
  void disarm();
  void observe(const proxy::exchange_record& exchange);

private:
  std::mutex mutex_;
  bool armed_ = false;
  client::client_config store_;
  std::string bucket_, key_;
  const object_shape* shape_ = nullptr;
  const std::string* replacement_ = nullptr;
};

} // namespace s3fault::gate
