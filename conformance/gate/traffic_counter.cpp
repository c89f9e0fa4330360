#include "conformance/gate/traffic_counter.hpp"

#include "faults/action_registry.hpp"
#include "faults/s3_request.hpp"

#include <algorithm>
#include <array>

namespace s3fault::gate {
namespace {

bool failed(const proxy::exchange_record& exchange) {
  return exchange.status == 0 || exchange.status >= 400 || !exchange.outcome.ok();
}

/// The action of each injection in "rule:action,rule:action" (rule names hold no ':' or ',').
std::vector<std::string_view> injected_actions(std::string_view faults) {
  std::vector<std::string_view> actions;
  while (!faults.empty()) {
    const auto comma = faults.find(',');
    const auto item = faults.substr(0, comma);
    const auto colon = item.find(':');
    actions.push_back(colon == std::string_view::npos ? item : item.substr(colon + 1));
    faults = comma == std::string_view::npos ? std::string_view() : faults.substr(comma + 1);
  }
  return actions;
}

bool is_upload_operation(std::string_view operation) {
  constexpr std::array<std::string_view, 4> upload = {"PutObject", "CreateMultipartUpload",
                                                      "UploadPart", "CompleteMultipartUpload"};
  return std::find(upload.begin(), upload.end(), operation) != upload.end();
}

/// "GetObject 416", or "GetObject" when the store sent no answer.
std::string landing(std::string_view operation, unsigned store_status) {
  return std::string(operation) + (store_status ? " " + std::to_string(store_status) : "");
}

} // namespace

bool fault_touches_object(run_role role, std::string_view action, std::string_view operation,
                          unsigned store_status) {
  if (role == run_role::writer) {
    return is_upload_operation(operation);
  }
  const auto* kind = faults::find_action_kind(action);
  const bool answered_2xx = store_status / 100 == 2;
  switch (kind ? kind->phase : faults::action_phase::before_store) {
  case faults::action_phase::response_body:
  case faults::action_phase::response_document:
    return answered_2xx && operation == "GetObject";
  case faults::action_phase::response_head:
    return answered_2xx && (operation == "GetObject" || operation == "HeadObject");
  default:
    return true; // before the store, or on the request: the reader's request met it
  }
}

void traffic_counter::watch(std::string bucket, std::string key, run_role role) {
  std::lock_guard lock(mutex_);
  bucket_ = std::move(bucket);
  key_ = std::move(key);
  role_ = role;
  counted_ = {};
  last_failed_.clear();
}

void traffic_counter::count(const proxy::exchange_record& exchange) {
  faults::request_line line;
  line.method = exchange.method;
  line.target = exchange.target;
  line.range = exchange.range;
  line.headers = exchange.operation_headers;
  const auto request = faults::classify_request(line);
  std::lock_guard lock(mutex_);
  ++counted_.requests_to_proxy;
  if (request.bucket != bucket_ || request.key != key_) {
    return;
  }
  ++counted_.requests;
  const std::string operation(faults::operation_name(request.operation));
  ++counted_.by_operation[operation];
  for (const auto action : injected_actions(exchange.faults)) {
    ++counted_.faults_injected;
    if (fault_touches_object(role_, action, operation, exchange.store_status)) {
      ++counted_.faults_on_object;
    } else {
      counted_.faults_elsewhere.insert(landing(operation, exchange.store_status));
    }
  }
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
