#include "conformance/gate/replace_trigger.hpp"

#include "conformance/gate/fixture_upload.hpp"
#include "faults/s3_request.hpp"

#include <utility>

namespace s3fault::gate {

void replace_trigger::arm(client::client_config store, std::string bucket, std::string key,
                          const object_shape* shape, const std::string* replacement) {
  std::lock_guard lock(mutex_);
  store_ = std::move(store);
  bucket_ = std::move(bucket);
  key_ = std::move(key);
  shape_ = shape;
  replacement_ = replacement;
  armed_ = true;
  outcome_ = {};
}

replacement_outcome replace_trigger::disarm() {
  std::lock_guard lock(mutex_);
  armed_ = false;
  return std::exchange(outcome_, {});
}

void replace_trigger::observe(const proxy::exchange_record& exchange) {
  std::lock_guard lock(mutex_);
  if (!armed_ || exchange.method != "GET") {
    return;
  }
  // Compared decoded: targets carry keys URL-encoded ("mp-8MiB+1" arrives as "mp-8MiB%2B1").
  const auto request = faults::classify_request({.method = exchange.method,
                                                 .target = exchange.target,
                                                 .host = "",
                                                 .headers = {},
                                                 .range = exchange.range});
  if (request.bucket != bucket_ || request.key != key_ ||
      request.operation != faults::s3_operation::GetObject) {
    return;
  }
  if (outcome_.replaced) {
    ++outcome_.reads_after;
    return;
  }
  if (exchange.status < 200 || exchange.status >= 300) {
    return;
  }
  outcome_.replaced = true;
  try {
    client::s3_client store(store_);
    upload_fixture(store, bucket_, key_, *shape_, *replacement_);
  } catch (const std::exception&) {
    // The object stays the first one; the reader is judged against either, as always.
  }
}

} // namespace s3fault::gate
