#pragma once
// One end of a proxied connection, client side or store side, plain TCP or TLS, behind one small
// interface so the session and the relay are written once. Every operation has a deadline set
// just before it (Beast's basic_stream timers): a peer that stops moving is cut off.
#include "proxy/net.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/ssl/context.hpp>

#include <memory>
#include <string>

namespace s3fault::proxy {

class byte_stream {
public:
  virtual ~byte_stream() = default;

  /// Applies to the next read or write started on this stream (each direction has its own).
  virtual void expires_after(clock::duration timeout) = 0;
  virtual void expires_never() = 0;

  /// Reads at least one byte. A TLS peer that closes without close_notify reads as plain EOF.
  virtual asio::awaitable<std::size_t> read_some(asio::mutable_buffer buffer, error_code& ec) = 0;
  /// Writes the whole buffer.
  virtual asio::awaitable<void> write_all(asio::const_buffer buffer, error_code& ec) = 0;
  /// Ends the sending direction cleanly (TLS close_notify, then TCP FIN); errors are ignored.
  virtual asio::awaitable<void> shutdown_send() = 0;

  /// Closes at once; pending operations complete with operation_aborted.
  virtual void close() = 0;
  /// Closes with a TCP RST instead of FIN (SO_LINGER 0). The kernel drops whatever is still in
  /// the send queue: call wait_until_delivered first when the peer must get every byte written.
  void reset();
  /// Waits, for at most `limit`, until the peer has acknowledged every byte written so far (the
  /// socket's send queue, SIOCOUTQ, is empty), or the peer has reset the connection. Returns the
  /// bytes still unacknowledged then (0 after a reset: none can be delivered).
  asio::awaitable<std::size_t> wait_until_delivered(clock::duration limit);

  /// The TCP socket underneath, for socket options and liveness checks.
  virtual tcp::socket& socket() = 0;
  virtual bool is_tls() const = 0;
  /// False once closed, by us or by a deadline.
  virtual bool is_open() { return socket().is_open(); }
  /// True when socket() carries the bytes as they are, so splice(2) can move them.
  virtual bool splice_capable() const { return !is_tls(); }

  /// True when an idle connection can be reused: no EOF, no unexpected bytes waiting.
  bool looks_reusable();

  /// True once a read or write ran into its deadline (which closes the stream): the peer went
  /// silent or stopped reading. Another operation cut short by that close does not know why.
  bool deadline_expired() const { return deadline_expired_; }

protected:
  /// Called by implementations with the result of every read and write.
  void note_result(const error_code& ec);

private:
  bool deadline_expired_ = false;
};

/// Wraps an accepted or connected TCP socket.
std::unique_ptr<byte_stream> make_plain_stream(tcp::socket socket);

/// Wraps a TCP socket in TLS; call the handshake before any read or write.
class tls_byte_stream;
std::unique_ptr<byte_stream> make_tls_stream(tcp::socket socket, asio::ssl::context& context);

/// Runs the server-side TLS handshake on a stream made by make_tls_stream.
asio::awaitable<void> tls_server_handshake(byte_stream& stream, error_code& ec);
/// Runs the client-side handshake with SNI and, when `verify` is set, certificate and host name
/// verification against `host`.
asio::awaitable<void> tls_client_handshake(byte_stream& stream, const std::string& host,
                                           bool verify, error_code& ec);

} // namespace s3fault::proxy
