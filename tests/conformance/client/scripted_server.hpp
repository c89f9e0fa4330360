#pragma once
// A tiny HTTP "store" for client tests: a raw socket on 127.0.0.1:0 (plain or TLS) whose
// behaviour per connection is a test-written function, so a test can send a short body, stall,
// close at any byte or record exactly what the client sent. Blocking POSIX sockets and OpenSSL,
// no Asio: the thing under test is the client's Asio code, not this.
#include "conformance/client/http_connection.hpp"

#include <openssl/ssl.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace s3fault::client::test {

/// One accepted connection, seen from the server side.
class scripted_server;
class peer {
public:
  peer(int fd, SSL* tls, scripted_server* owner);
  ~peer();
  peer(const peer&) = delete;
  peer& operator=(const peer&) = delete;

  /// Reads one request: the head up to the blank line and a Content-Length body. Returns the
  /// raw bytes, or "" when the client closed first (or nothing came within `timeout`).
  std::string read_request(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  /// Whatever bytes come next (buffered first), "" on EOF or timeout.
  std::string read_some_bytes(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  void send(std::string_view bytes);
  /// Waits until the client closes its side (read returns 0) or `timeout` passes.
  bool wait_for_close(std::chrono::milliseconds timeout = std::chrono::seconds(10));
  /// The SNI name the client sent ("" without TLS or SNI).
  std::string server_name() const;

private:
  /// Reads some bytes into `pending_`; false on EOF, error or timeout.
  bool read_some(std::chrono::milliseconds timeout);

  int fd_;
  SSL* tls_;
  scripted_server* owner_;
  std::string pending_;
};

/// Accepts connections one after the other and runs `handler` for each on a server thread.
class scripted_server {
public:
  using handler = std::function<void(peer&, int connection_index)>;

  /// `tls`: a server context to speak TLS with (nullptr: plain TCP).
  explicit scripted_server(handler on_connection, SSL_CTX* tls = nullptr);
  ~scripted_server();
  scripted_server(const scripted_server&) = delete;
  scripted_server& operator=(const scripted_server&) = delete;

  std::uint16_t port() const { return port_; }
  std::string url() const;
  int connections() const { return connections_.load(); }
  /// Connections whose handler has returned and whose socket is closed.
  int finished() const { return finished_.load(); }
  /// Waits (bounded) until `count` connections are finished; false on timeout.
  bool wait_finished(int count, std::chrono::milliseconds timeout = std::chrono::seconds(10)) const;
  /// Every request read by peer::read_request, in order.
  std::vector<std::string> requests() const;

private:
  friend class peer;
  void serve();

  handler on_connection_;
  SSL_CTX* tls_;
  int listen_fd_ = -1;
  std::uint16_t port_ = 0;
  std::atomic<int> connections_{0};
  std::atomic<int> finished_{0};
  std::atomic<bool> stopping_{false};
  mutable std::mutex requests_mutex_;
  std::vector<std::string> requests_;
  std::thread thread_;
};

/// A server TLS context with a fresh self-signed certificate for localhost and 127.0.0.1; its
/// PEM is written to `cert_pem_path` (for tests of the CA-file option).
SSL_CTX* make_self_signed_context(const std::string& cert_pem_path);

/// A plain response with a Content-Length body.
std::string http_response(int status, std::string_view reason, std::string_view body,
                          std::string_view extra_headers = "");

/// Options for a connection to `server`, with 5 s deadlines.
connection_options options_for(const scripted_server& server);

/// A GET of `target` with the server's Host header.
s3::http_request_view get_request(const scripted_server& server, std::string target = "/b/k");

} // namespace s3fault::client::test
