#pragma once
// One log line per exchange, in text or JSON. Targets are logged with presigned-URL credentials
// (X-Amz-Signature, X-Amz-Credential, X-Amz-Security-Token, ...) redacted by
// runtime/log_redaction.hpp, and no request header is ever logged, so Authorization and session
// tokens cannot leak.
#include <cstdint>
#include <string>
#include <string_view>

namespace s3fault::proxy {

enum class log_format { text, json };

/// What one request/response exchange did, as seen by the proxy.
struct exchange_record {
  std::string client; // peer address:port
  std::string method;
  std::string target;               // as received; redacted when logged
  std::string range;                // the request's Range header, when it had one (not logged)
  std::string host;                 // the request's Host header (not logged; classification)
  bool copy_source = false;         // x-amz-copy-source was sent (classification: CopyObject)
  unsigned status = 0;              // status sent to the client (0: none was sent)
  std::uint64_t request_bytes = 0;  // request body bytes relayed to the store
  std::uint64_t response_bytes = 0; // response body bytes relayed to the client
  double duration_ms = 0;           // request head received -> exchange finished
  double ttfb_ms = -1;              // request head received -> store's response head received
  bool upstream_reused = false;
  bool upstream_used = false;
  std::string outcome = "ok"; // "ok", or what went wrong
  std::string faults;         // injected faults, "rule:action,..." (empty: none)
};

std::string format_exchange(const exchange_record& record, log_format format);

} // namespace s3fault::proxy
