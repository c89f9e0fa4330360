#pragma once
// Internal to the server: one worker thread's world (its sessions, on the io_context that
// runtime/server_runtime runs on that thread) and the session that serves one connection. Each
// connection lives on exactly one worker, so none of this needs a lock; shared state is in the
// origin_service.
#include "conformance/origin/object_reader.hpp"
#include "conformance/origin/origin_server.hpp"
#include "conformance/origin/origin_service.hpp"

#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>

#include <spdlog/logger.h>

#include <unordered_set>
#include <vector>

namespace s3fault::origin {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;

class origin_session;

struct origin_worker {
  origin_worker(origin_service& service, const origin_config& config,
                std::shared_ptr<spdlog::logger> logger)
      : service(service), config(config), logger(std::move(logger)) {}

  origin_service& service;
  const origin_config& config;
  std::shared_ptr<spdlog::logger> logger;
  std::unordered_set<origin_session*> sessions;
  bool draining = false;
};

/// One client connection: reads requests, hands them to the service, streams the bodies both
/// ways, keeps the connection alive between requests when both sides allow it.
class origin_session {
public:
  origin_session(origin_worker& worker, tcp::socket socket, std::string peer);
  ~origin_session();
  origin_session(const origin_session&) = delete;
  origin_session& operator=(const origin_session&) = delete;

  asio::awaitable<void> run();
  /// Closes the connection when it is between requests (graceful shutdown).
  void close_if_idle();

private:
  struct exchange;
  /// How reading a request body ended: the connection is still usable, and the consumer
  /// accepted every byte or refused the body with an error.
  struct body_read {
    bool connection_ok = true;
    std::optional<s3_error> rejected;
  };
  /// Serves one request; returns whether the connection stays open.
  asio::awaitable<bool> serve_request();
  asio::awaitable<body_read> read_body_into(exchange& current, body_consumer& consumer);
  asio::awaitable<bool> write_response(exchange& current, const origin_response& response,
                                       bool close);
  asio::awaitable<void> discard_rest_of_body(exchange& current);
  /// What send_file sent, and why it stopped short (empty: it sent the whole range).
  struct file_sent {
    std::size_t bytes = 0;
    std::string outcome;
  };
  /// Sends a file range with sendfile(2), without copying it through the process, waiting
  /// whenever the socket has enough queued.
  asio::awaitable<file_sent> send_file(const object_reader::file_range& range);
  /// Waits until the socket takes more; empty, or why it will not (timeout, closed).
  asio::awaitable<std::string> wait_writable();
  /// Ends the connection with a reset, so a body cut short cannot look complete.
  void cut_connection();
  void log_request(exchange& current);
  std::vector<char>& scratch();

  origin_worker& worker_;
  boost::beast::tcp_stream stream_;
  boost::beast::flat_buffer buffer_;
  std::string peer_;
  std::vector<char> scratch_;
  bool idle_ = true;
};

} // namespace s3fault::origin
