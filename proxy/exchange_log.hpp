#pragma once
// One log line per exchange, in text or JSON. Targets are logged with presigned-URL credentials
// (X-Amz-Signature, X-Amz-Credential, X-Amz-Security-Token, ...) redacted by
// runtime/log_redaction.hpp, and no request header is ever logged, so Authorization and session
// tokens cannot leak.
#include "proxy/exchange_outcome.hpp"

#include <nlohmann/json_fwd.hpp>

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::faults {
struct s3_request;
}

namespace s3fault::proxy {

enum class log_format { text, json };

/// What one request/response exchange did, as seen by the proxy.
struct exchange_record {
  std::chrono::system_clock::time_point started_at; // the request head arrived
  std::string client;                               // peer address:port
  std::string method;
  std::string target; // as received; redacted when logged
  std::string range;  // the request's Range header, when it had one (not logged)
  std::string host;   // the request's Host header (not logged; classification)
  std::vector<std::string> operation_headers; // faults::distinguishing_headers() sent (CopyObject)
  unsigned status = 0;                        // status sent to the client (0: none was sent)
  unsigned store_status = 0;        // the store's final status, before any fault (0: none came)
  std::uint64_t request_bytes = 0;  // request body bytes relayed to the store
  std::uint64_t response_bytes = 0; // response body bytes relayed to the client
  double duration_ms = 0;           // request head received -> exchange finished
  /// Request head received -> the first response byte (interim 1xx, the store's answer or the
  /// proxy's own) handed to the client's socket, whatever held it (a delay rule, a first-byte
  /// delay, the store); -1: no answer was sent.
  double ttfb_ms = -1;
  /// Request head written to the store -> the store's first response head read; -1: none came.
  double store_ttfb_ms = -1;
  bool upstream_reused = false;
  bool upstream_used = false;
  /// The request head could not be read: a client error that names no object, so never a retry.
  bool malformed_head = false;
  exchange_outcome outcome; // ok, or what went wrong (outcome_text says it in words)
  std::string faults;       // injected faults, "rule:action,..." (empty: none)
  std::string error_code;   // the S3 error code of an error answer, when known
  std::string request_id;   // the answer's x-amz-request-id (empty: none)
  /// The request's fields as received and the response's as sent to the client (after any
  /// fault), secrets redacted; kept only for the journal and the dashboard (keep_heads).
  std::vector<std::pair<std::string, std::string>> request_headers, response_headers;
};

/// Adds `ttfb_ms` and `store_ttfb_ms` to a JSON line, each only when it was measured.
void add_first_byte_times(nlohmann::json& line, const exchange_record& record);

/// The log line: the operation always, the bucket when the Host named it (virtual-hosted
/// requests, whose target does not show it), the answer's request id when it had one.
std::string format_exchange(const exchange_record& record, const faults::s3_request& request,
                            log_format format);

} // namespace s3fault::proxy
