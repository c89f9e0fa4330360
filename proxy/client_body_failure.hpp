#pragma once
// Whose fault a request body that did not reach its end was, and what the client is told.
//
//   client ──body──> upload relay ──> store
//     malformed chunked framing, or EOF before the end:  the client's; it can still read, so it
//                                                        gets 400 IncompleteBody (as S3 answers)
//     reset, silence past --io-timeout:                  the client's; its connection is gone
//     the store stopped taking the body first:           not here (the store's 502/504)
#include "proxy/body_relay.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace s3fault::proxy {

/// A request body that failed on the client's side.
struct client_body_failure {
  /// The client can still read an answer (it sent bad bytes, or ended its side early).
  bool answerable = false;
  std::string_view code; // the S3 error code of the answer, when answerable
  std::string what;      // the exchange's outcome, and the answer's message after "s3fault: "
};

/// The client's failure in an upload's outcome; nullopt when the client sent its whole body, or
/// when the store failed first (it stopped taking the body).
std::optional<client_body_failure> client_body_failure_of(const relay_outcome& upload);

} // namespace s3fault::proxy
