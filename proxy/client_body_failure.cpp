#include "proxy/client_body_failure.hpp"

#include <boost/asio/error.hpp>

namespace s3fault::proxy {

std::optional<client_body_failure> client_body_failure_of(const relay_outcome& upload) {
  if (upload.write_error) {
    return std::nullopt; // the store stopped taking the body first; what the client did after
                         // that (the relay drains it) is not why the upload failed
  }
  // S3 answers both with 400 IncompleteBody ("The request body terminated unexpectedly"): a
  // chunked body whose sizes do not match its bytes is, to S3, one that ended too soon.
  if (!upload.framing_error.empty()) {
    return client_body_failure{true, "IncompleteBody",
                               "client sent malformed chunked framing: " + upload.framing_error};
  }
  if (upload.read_error == asio::error::eof) {
    return client_body_failure{
        true, "IncompleteBody",
        "client ended the request body early (it closed its side of the connection)"};
  }
  if (upload.read_error) {
    return client_body_failure{
        false, {}, "client went away during the upload: " + upload.read_error.message()};
  }
  return std::nullopt;
}

} // namespace s3fault::proxy
