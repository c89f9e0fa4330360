#pragma once
// Connections to the store, kept open between exchanges and reused (one pool per worker
// thread, so no locks). A pooled connection is checked for a close or stray bytes before reuse
// and dropped after `upstream_idle_timeout`, shorter than common store keep-alive limits.
#include "proxy/byte_stream.hpp"
#include "proxy/proxy_config.hpp"

#include <boost/beast/core/flat_buffer.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace s3fault::proxy {

/// One connection to the store with the bytes read from it but not yet used.
struct upstream_connection {
  std::unique_ptr<byte_stream> stream;
  boost::beast::flat_buffer buffer;
  clock::time_point idle_since{};
};

class upstream_pool {
public:
  upstream_pool(asio::io_context& context, const proxy_config& config,
                std::vector<tcp::endpoint> endpoints, asio::ssl::context* tls);

  /// The most recently used idle connection that still looks alive, or nullptr.
  std::unique_ptr<upstream_connection> take_idle();
  /// A new connection (TCP connect, then TLS handshake for https stores).
  asio::awaitable<std::unique_ptr<upstream_connection>> connect(error_code& ec);
  /// Returns a connection whose last exchange ended cleanly; closes it instead when the store
  /// sent more than the response (bytes are left in its buffer).
  void put_back(std::unique_ptr<upstream_connection> connection);
  void close_all();

  /// Makes connect() take its streams from `make` instead of the network (a null stream is a
  /// refused connection): the fuzz targets put an in-memory store behind a real session.
  using stream_maker = std::function<std::unique_ptr<byte_stream>()>;
  void connect_with(stream_maker make) { stream_maker_ = std::move(make); }

private:
  asio::io_context& context_;
  const proxy_config& config_;
  std::vector<tcp::endpoint> endpoints_;
  asio::ssl::context* tls_;
  std::vector<std::unique_ptr<upstream_connection>> idle_; // most recent last
  stream_maker stream_maker_;
};

} // namespace s3fault::proxy
