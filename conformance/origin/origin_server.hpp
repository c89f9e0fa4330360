#pragma once
// The origin as a whole: storage, the service, and one origin_worker (its sessions) per thread.
// The threads, the listener and graceful shutdown are the shared server runtime
// (runtime/server_runtime.hpp), which the proxy runs on too. Embeddable: the CLI, the gate and
// tests start it through this class.
//
//   runtime listener ──accept──> runtime worker thread i
//     ──start_session(i)──> origin_session on worker[i] ──> origin_service ──> object_store
//   request_stop ──> runtime closes the listener ──on_drain(i)──> worker[i]: idle sessions
//     closed, busy ones finish their request (the runtime waits up to drain_timeout)
//
#include "conformance/origin/access_log.hpp"
#include "conformance/origin/operations.hpp"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>

namespace spdlog {
class logger;
}

namespace s3fault::origin {

class origin_service;

struct origin_config {
  std::string listen_host = "127.0.0.1";
  std::uint16_t listen_port = 0;
  std::string data_dir; // empty: objects in memory
  origin_settings settings;
  unsigned threads = 0; // 0: half the cores, at least one
  log_format format = log_format::text;
  std::chrono::milliseconds idle_timeout{std::chrono::seconds(60)};
  std::chrono::milliseconds io_timeout{std::chrono::seconds(60)};
  std::chrono::milliseconds drain_timeout{std::chrono::seconds(10)};
  std::uint32_t max_header_bytes = 64 * 1024;
};

class origin_server {
public:
  /// Opens the storage (loading a data directory). Throws std::runtime_error with a message
  /// fit for the user.
  origin_server(origin_config config, std::shared_ptr<spdlog::logger> logger);
  ~origin_server();

  /// Binds and listens; returns the port actually bound (the real one when 0 was asked).
  std::uint16_t bind();
  /// The URL clients use, e.g. `http://127.0.0.1:9000`.
  std::string listen_url() const;

  /// Serves until request_stop(), then lets requests in flight end (up to drain_timeout).
  void run();
  /// Thread-safe; may be called before run() starts.
  void request_stop();

  origin_service& service();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace s3fault::origin
