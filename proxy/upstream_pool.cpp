#include "proxy/upstream_pool.hpp"

#include <boost/beast/core/tcp_stream.hpp>

namespace s3fault::proxy {

upstream_pool::upstream_pool(asio::io_context& context, const proxy_config& config,
                             std::vector<tcp::endpoint> endpoints, asio::ssl::context* tls)
    : context_(context), config_(config), endpoints_(std::move(endpoints)), tls_(tls) {}

std::unique_ptr<upstream_connection> upstream_pool::take_idle() {
  // A connection idle for less than this is taken without the liveness peek (a recv syscall
  // per request): stores close idle connections after seconds, and a request that still meets a
  // closed one before any response byte is sent again on a new connection.
  constexpr auto recently_used = std::chrono::seconds(1);
  const auto now = clock::now();
  while (!idle_.empty()) {
    auto connection = std::move(idle_.back());
    idle_.pop_back();
    const auto idle_for = now - connection->idle_since;
    if (idle_for < config_.upstream_idle_timeout &&
        (idle_for < recently_used || connection->stream->looks_reusable())) {
      return connection;
    }
    connection->stream->close();
  }
  return nullptr;
}

asio::awaitable<std::unique_ptr<upstream_connection>> upstream_pool::connect(error_code& ec) {
  if (stream_maker_) {
    auto connection = std::make_unique<upstream_connection>();
    connection->stream = stream_maker_();
    if (!connection->stream) {
      ec = asio::error::connection_refused;
      co_return nullptr;
    }
    co_return connection;
  }
  boost::beast::tcp_stream connecting(context_);
  connecting.expires_after(config_.connect_timeout);
  co_await connecting.async_connect(endpoints_, use_ec(ec));
  if (ec) {
    co_return nullptr;
  }
  connecting.expires_never();
  connecting.socket().set_option(tcp::no_delay(true), ec);
  auto connection = std::make_unique<upstream_connection>();
  if (tls_ != nullptr) {
    connection->stream = make_tls_stream(connecting.release_socket(), *tls_);
    connection->stream->expires_after(config_.connect_timeout);
    co_await tls_client_handshake(*connection->stream, config_.upstream.host,
                                  !config_.upstream_insecure, ec);
    if (ec) {
      co_return nullptr;
    }
  } else {
    connection->stream = make_plain_stream(connecting.release_socket());
  }
  co_return connection;
}

void upstream_pool::put_back(std::unique_ptr<upstream_connection> connection) {
  if (connection->buffer.size() > 0) {
    // Bytes after the end of the response (a body on a 204, a second response nobody asked
    // for) would be read as the answer to the next request sent on this connection.
    connection->stream->close();
    return;
  }
  connection->idle_since = clock::now();
  connection->stream->expires_never();
  if (idle_.size() >= config_.max_idle_upstream_per_thread) {
    idle_.front()->stream->close();
    idle_.erase(idle_.begin());
  }
  idle_.push_back(std::move(connection));
}

void upstream_pool::close_all() {
  for (auto& connection : idle_) {
    connection->stream->close();
  }
  idle_.clear();
}

} // namespace s3fault::proxy
