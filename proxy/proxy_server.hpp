#pragma once
// The proxy as a whole: TLS set-up, the store's address, and one `worker` (upstream pool, relay
// buffers, sessions) per thread. The threads, the listener and graceful shutdown are the shared
// server runtime (runtime/server_runtime.hpp), which the origin runs on too:
//
//   runtime listener ──accept──> runtime worker thread i
//     ──start_session(i)──> client_session on worker[i] ──> upstream_pool[i] ──> store
//   request_stop ──> runtime closes the listener ──on_drain(i)──> worker[i]: pool closed, idle
//     sessions closed, busy ones finish their exchange (the runtime waits up to drain_timeout)
//
#include "proxy/proxy_config.hpp"

#include <boost/asio/ip/tcp.hpp>

#include <memory>

namespace spdlog {
class logger;
}

namespace s3fault::proxy {

class proxy_server {
public:
  /// Validates the configuration, builds TLS contexts and resolves the store's address.
  /// Throws std::runtime_error with a message fit for the user.
  proxy_server(proxy_config config, std::shared_ptr<spdlog::logger> logger);
  ~proxy_server();

  /// Binds and listens; returns the address actually bound (the real port when 0 was asked).
  boost::asio::ip::tcp::endpoint bind();
  /// The URL clients use, e.g. `http://127.0.0.1:8080`.
  std::string listen_url() const;

  /// Serves until request_stop(), then lets in-flight exchanges end (up to drain_timeout).
  void run();
  /// Thread-safe and signal-safe enough to call from a signal handler's thread.
  void request_stop();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace s3fault::proxy
