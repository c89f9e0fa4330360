#pragma once
// The origin without its sockets: takes a request head, checks the signature, routes it to an
// operation and finishes its response. The server (origin_server.hpp) moves the bytes; this
// class is what tests drive directly.
//
//   request_head ──verify SigV4──> route ──> bucket owner? ──> operation ──> origin_response
//                  (secret by the             (403 AccessDenied     │          | body_consumer
//                   access key; 403/400)       for another account) └── object_store (locked)
#include "conformance/origin/http_message.hpp"
#include "conformance/origin/object_store.hpp"
#include "conformance/origin/operations.hpp"
#include "conformance/origin/origin_counters.hpp"
#include "conformance/origin/storage_backend.hpp"

#include <memory>
#include <string>

namespace s3fault::origin {

class origin_service {
public:
  origin_service(origin_settings settings, std::unique_ptr<storage_backend> backend);

  /// What to do with a request whose head has arrived.
  struct begun {
    operation_start start;
    s3_operation op = s3_operation::Other;
    std::string resource; // "/bucket/key", for errors found while reading the body
  };
  begun begin(const request_head& head);

  /// Completes a response: renders an error as XML (no body when answering a HEAD) and adds
  /// the fields every S3 response has: x-amz-request-id, x-amz-id-2, Date, Server.
  void finalize(origin_response& response, std::string_view request_id, bool head_request) const;

  object_store& store() { return store_; }
  const origin_settings& settings() const { return settings_; }
  /// Requests, errors and bytes per operation (the server records every answered request).
  origin_counters& counters() { return counters_; }

private:
  origin_settings settings_;
  object_store store_;
  origin_counters counters_;
};

/// A request id in S3's style: 16 upper-case hex digits, unique within the process.
std::string new_request_id();

} // namespace s3fault::origin
