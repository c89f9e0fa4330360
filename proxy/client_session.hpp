#pragma once
// One client connection: reads request heads, hands each to an exchange (exchange.hpp), and
// keeps the connection alive between exchanges when both sides allow it.
#include "proxy/byte_stream.hpp"
#include "proxy/worker.hpp"

#include <boost/beast/core/flat_buffer.hpp>

#include <memory>
#include <string>

namespace s3fault::proxy {

class client_session {
public:
  client_session(worker& owner, std::unique_ptr<byte_stream> client, std::string peer);
  ~client_session();
  client_session(const client_session&) = delete;
  client_session& operator=(const client_session&) = delete;

  /// TLS handshake when the listener has TLS, then exchanges until either side closes.
  asio::awaitable<void> run();

  /// Closes the connection when it is between exchanges (used by graceful shutdown).
  void close_if_idle();

private:
  /// Reads the next request head and serves its exchange; returns whether the client
  /// connection stays open.
  asio::awaitable<bool> serve_next();

  worker& owner_;
  std::unique_ptr<byte_stream> client_;
  boost::beast::flat_buffer client_buffer_; // bytes read past a head: a body, a pipelined head
  std::string peer_;
  bool idle_ = true;
};

} // namespace s3fault::proxy
