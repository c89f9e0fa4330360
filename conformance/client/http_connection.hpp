#pragma once
// One HTTP/1.1 connection to a store, used synchronously: plain TCP or TLS, kept alive and
// reused across exchanges, re-opened when the store has closed it. Every network operation has
// a deadline. One connection per thread (it owns its io_context); no locks.
//
//   request head + body ──write (deadline per chunk)──> store
//   store ──first byte (deadline)──> head (parsed, raw bytes kept) ──body (idle deadline)──>
//        ├─ 2xx: memory (capped) | callback | file | discard   + byte count, SHA-256, MD5
//        └─ other statuses: memory (capped), for the S3 error
//   a body shorter than its framing, a timeout, a reset: response::failure, never an exception
//
// Asio and Beast stay inside http_connection.cpp.
#include "conformance/client/endpoint.hpp"
#include "conformance/client/http_types.hpp"

#include <chrono>
#include <cstdint>
#include <memory>

namespace s3fault::client {

/// Deadlines; each applies to one operation, so a transfer that keeps moving never times out.
struct deadlines {
  using duration = std::chrono::steady_clock::duration;
  duration connect = std::chrono::seconds(10);    // TCP connect, then the TLS handshake
  duration write = std::chrono::seconds(30);      // each chunk of the request written
  duration first_byte = std::chrono::seconds(60); // request sent -> first response byte
  duration read_idle = std::chrono::seconds(30);  // between reads of the head and the body
};

/// TLS settings for https endpoints.
struct tls_options {
  std::string ca_file{};     // PEM CAs to trust instead of the system's
  bool insecure = false;     // accept any certificate and host name
  std::string server_name{}; // SNI and verified name; empty: the endpoint host
};

struct connection_options {
  endpoint target{};
  tls_options tls{};
  deadlines timeouts{};
  std::uint32_t max_head_bytes = 64 * 1024;
  std::size_t max_error_body_bytes = 1024 * 1024; // cap for bodies of non-2xx responses
  /// When a reused connection turns out closed by the store before any response byte, send the
  /// request once more on a new connection (the usual keep-alive race).
  bool retry_on_stale_connection = true;
};

/// How to read one response.
struct read_options {
  body_target target{};
  bool sha256 = false; // running hashes of the response body
  bool md5 = false;
  bool content_hash = false; // s3::content_hash (XXH3) of the body: cheap enough for every read
};

/// Counters over the life of a connection object (STYLE: count what you do).
struct connection_counters {
  std::uint64_t connections_opened = 0;
  std::uint64_t exchanges = 0;
  std::uint64_t reused = 0;
  std::uint64_t stale_retries = 0;
};

class http_connection {
public:
  /// Throws std::runtime_error when the TLS settings cannot be applied (unreadable CA file).
  explicit http_connection(connection_options options);
  ~http_connection();
  http_connection(http_connection&&) noexcept;
  http_connection& operator=(http_connection&&) noexcept;

  /// Sends `request` (method, target and headers exactly as given: add Host and Content-Length
  /// before) with `body`, and reads the response. A HEAD request reads no body.
  response exchange(const s3::http_request_view& request, const body_source& body,
                    const read_options& options);

  /// Closes the connection now; the next exchange opens a new one.
  void close();
  /// Opens the connection now (connect, and the TLS handshake) unless it is open; the next
  /// exchange uses it. A failure is returned, and the next exchange tries again.
  transport_error open();
  bool is_open() const;
  const connection_counters& counters() const;
  const connection_options& options() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace s3fault::client
