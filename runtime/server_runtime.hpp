#pragma once
// The machinery every server of s3fault runs on (the proxy and the origin): worker threads with
// one io_context each, one listener that hands accepted connections to the workers in turn, and
// graceful shutdown with a bounded drain. What a connection means is the caller's business: it
// gives the runtime a start_session that serves one socket and an on_drain that tells one
// worker's sessions to wind down, and keeps its own per-worker state indexed like the workers.
//
//   bind ──> listener (on worker 0) ──accept──> worker[i]: start_session(i, socket, peer)
//   request_stop ──> listener closed; on_drain(i) on each worker ──> run() returns when every
//                    worker is idle, or at drain_timeout (remaining connections cut)
//
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

namespace spdlog {
class logger;
}

namespace s3fault::runtime {

/// What the caller plugs into a server_runtime. Both are called on the thread of the worker they
/// name, so the caller's per-worker state needs no lock.
struct server_hooks {
  /// Serves one accepted connection to its end. The socket belongs to the worker's io_context;
  /// `peer` is "address:port" (brackets around IPv6), or "?" when unknown. An exception escaping
  /// it is logged and ends only that connection.
  std::function<boost::asio::awaitable<void>(std::size_t worker_index,
                                             boost::asio::ip::tcp::socket socket, std::string peer)>
      start_session;
  /// Called once per worker at shutdown, when the runtime stops accepting (the listener is
  /// closed by a handler posted to worker 0 just before): close what is idle and let what is
  /// busy finish.
  std::function<void(std::size_t worker_index)> on_drain;
};

struct server_runtime_options {
  unsigned threads = 0; // worker threads; 0: one per core
  std::chrono::milliseconds drain_timeout{std::chrono::seconds(10)};
  /// What is in flight, for the stop log line ("waiting up to N ms for requests in flight").
  std::string in_flight = "requests";
};

/// Owns the workers' io_contexts and threads, the listener and the stop/drain sequence.
class server_runtime {
public:
  server_runtime(server_runtime_options options, server_hooks hooks,
                 std::shared_ptr<spdlog::logger> logger);
  ~server_runtime();
  server_runtime(const server_runtime&) = delete;
  server_runtime& operator=(const server_runtime&) = delete;

  std::size_t worker_count() const;
  /// Worker `worker_index`'s io_context, for the caller's per-worker state (timers, pools).
  boost::asio::io_context& context(std::size_t worker_index);

  /// Resolves `host` and listens on its first address. Throws std::runtime_error with a message
  /// fit for the user (`cannot listen on 127.0.0.1:80: Permission denied`). Returns the address
  /// actually bound (the real port when 0 was asked).
  boost::asio::ip::tcp::endpoint bind(const std::string& host, std::uint16_t port);
  /// `SCHEME://HOST:PORT` of the bound address, e.g. `http://127.0.0.1:9000`.
  std::string listen_url(std::string_view scheme) const;

  /// Serves until request_stop(), then stops accepting, calls on_drain on every worker and waits
  /// up to drain_timeout for the workers to finish before cutting what remains. Throws
  /// std::logic_error when called before bind().
  void run();
  /// Thread-safe; may be called before run() starts (run() then drains at once).
  void request_stop();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// For an on_drain: calls close_if_idle() on each of a worker's sessions. Works on a copy of the
/// set, because closing a session can end it, which erases it from the set.
template <typename Session> void close_idle_sessions(const std::unordered_set<Session*>& sessions) {
  const std::vector<Session*> snapshot(sessions.begin(), sessions.end());
  for (auto* session : snapshot) {
    session->close_if_idle();
  }
}

/// The addresses `host` resolves to, for `port`. Throws std::runtime_error naming `what` (e.g.
/// "upstream") and the host when there are none.
std::vector<boost::asio::ip::tcp::endpoint> resolve_host(const std::string& host,
                                                         std::uint16_t port, std::string_view what);

/// Opens `acceptor` on `endpoint` as every listener of s3fault is opened: SO_REUSEADDR (a restart
/// binds while old connections linger in TIME_WAIT) and the system's longest backlog. Throws
/// std::runtime_error: "cannot listen on 127.0.0.1:80: Permission denied".
void listen_on(boost::asio::ip::tcp::acceptor& acceptor,
               const boost::asio::ip::tcp::endpoint& endpoint);

} // namespace s3fault::runtime
