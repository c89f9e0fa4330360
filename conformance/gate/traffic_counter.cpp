#include "conformance/gate/traffic_counter.hpp"

#include "faults/s3_request.hpp"

#include <algorithm>

namespace s3fault::gate {
namespace {

bool failed(const proxy::exchange_record& exchange) {
  return exchange.status == 0 || exchange.status >= 400 || exchange.outcome != "ok";
}

std::uint64_t injections(const std::string& faults) {
  if (faults.empty()) {
    return 0;
  }
  return 1 + static_cast<std::uint64_t>(std::count(faults.begin(), faults.end(), ','));
}

} // namespace

void traffic_counter::watch(std::string bucket, std::string key) {
  std::lock_guard lock(mutex_);
  bucket_ = std::move(bucket);
  key_ = std::move(key);
  counted_ = {};
  last_failed_.clear();
}

void traffic_counter::count(const proxy::exchange_record& exchange) {
  faults::request_line line;
  line.method = exchange.method;
  line.target = exchange.target;
  line.range = exchange.range;
  const auto request = faults::classify_request(line);
  std::lock_guard lock(mutex_);
  ++counted_.requests_to_proxy;
  if (request.bucket != bucket_ || request.key != key_) {
    return;
  }
  ++counted_.requests;
  const std::string operation(faults::operation_name(request.operation));
  ++counted_.by_operation[operation];
  counted_.faults_injected += injections(exchange.faults);
  counted_.bytes_to_reader += exchange.response_bytes;
  counted_.bytes_from_reader += exchange.request_bytes;
  const bool this_failed = failed(exchange);
  counted_.errors += this_failed;
  const std::string signature =
      operation + " " +
      (request.part_number ? "part " + std::to_string(*request.part_number)
                           : "range " + exchange.range);
  const auto previous = last_failed_.find(signature);
  if (previous != last_failed_.end() && previous->second) {
    ++counted_.retries;
  }
  // A fault counts as a failure for retry detection even when the status looked fine
  // (a consistent truncation, corrupted bytes): the reader may have noticed and asked again.
  last_failed_[signature] = this_failed || !exchange.faults.empty();
}

traffic traffic_counter::snapshot() const {
  std::lock_guard lock(mutex_);
  return counted_;
}

} // namespace s3fault::gate
