#pragma once
// How one exchange ended, as a kind the code branches on (metrics, the journal's failure count)
// and a text for people (the log line, the journal) that is derived from it.
#include <string>
#include <vector>

namespace s3fault::proxy {

enum class outcome_kind {
  ok,
  // The client.
  client_went_away,          // before or while its answer's head was written
  client_went_away_mid_body, // while the body was relayed
  client_gone_before_answer, // before an answer of the proxy's own was written
  client_body_refused,       // its upload broke the rules (client_body_failure.hpp)
  request_refused,           // the proxy answered an error of its own (a bad head, a 400)
  // The store.
  upstream_connect_failed,
  upstream_write_failed,
  no_store_response,
  too_many_interim,
  store_failed_mid_body,
  store_malformed_chunked,
  // A fault rule.
  fault_reset_before_store,
  fault_hang,
  fault_answered_by_proxy,
  fault_answer_replaced, // the store answered, the client was told something else
  fault_answer_reset,    // the store answered, the client got a reset
  fault_upload_reset,    // the upload's fault reset both connections
  fault_reset_mid_body,
  fault_body_cut,
};

struct exchange_outcome {
  exchange_outcome() = default;
  exchange_outcome(outcome_kind kind, std::string detail = {})
      : kind(kind), detail(std::move(detail)) {}

  outcome_kind kind = outcome_kind::ok;
  /// What the kind's text names: an error's message, the proxy's own message, the store's
  /// status or the bytes an upload reset let through.
  std::string detail;
  std::vector<std::string> asides; // what happened after, each shown in parentheses

  bool ok() const { return kind == outcome_kind::ok; }
};

struct exchange_record;

/// The outcome as the log line and the journal show it, e.g. "fault: body cut short" or
/// "upstream connect failed: Connection refused".
std::string outcome_text(const exchange_record& record);

} // namespace s3fault::proxy
