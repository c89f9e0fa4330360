#pragma once
// Error codes of the client's own findings (a body shorter than its Content-Length, a body over
// the memory cap, ...). Socket, TLS and timeout errors keep their Asio/Beast codes.
#include <boost/system/error_code.hpp>

#include <type_traits>

namespace s3fault::client {

enum class client_errc {
  short_body = 1,         // connection closed before Content-Length body bytes arrived
  incomplete_chunked,     // connection closed inside a chunked body
  closed_before_response, // connection closed before any byte of a response
  closed_inside_head,     // connection closed inside the response head
  bad_response,           // the response head or chunk framing could not be parsed
  body_over_cap,          // an in-memory body grew past its cap; the rest was not read
  sink_aborted,           // the body callback asked to stop
  local_io,               // reading the request body file or writing the response file failed
  invalid_request,        // the request could not be built from the options given
};

const boost::system::error_category& client_category();

inline boost::system::error_code make_error_code(client_errc e) {
  return {static_cast<int>(e), client_category()};
}

} // namespace s3fault::client

template <>
struct boost::system::is_error_code_enum<s3fault::client::client_errc> : std::true_type {};
