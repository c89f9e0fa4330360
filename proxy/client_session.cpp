#include "proxy/client_session.hpp"

#include "proxy/exchange.hpp"

#include <boost/beast/http/error.hpp>
#include <spdlog/spdlog.h>

namespace s3fault::proxy {
namespace {

/// A head that failed in a way that gets no answer: a peer that closed or idled out between
/// requests, that we closed, or whose head did not complete in time (the deadline closes the
/// socket: slow heads get no answer).
bool ends_in_silence(const head_read& head, byte_stream& client) {
  return !head.got_bytes || !client.is_open() || is_timeout(head.ec) ||
         head.ec == http::error::partial_message || head.ec == asio::error::connection_reset;
}

} // namespace

client_session::client_session(worker& owner, std::unique_ptr<byte_stream> client, std::string peer)
    : owner_(owner), client_(std::move(client)), peer_(std::move(peer)) {
  owner_.sessions.insert(this);
  if (owner_.config.metrics) {
    owner_.config.metrics->connection_opened();
  }
}

client_session::~client_session() {
  owner_.sessions.erase(this);
  if (owner_.config.metrics) {
    owner_.config.metrics->connection_closed();
  }
}

void client_session::close_if_idle() {
  if (idle_) {
    client_->close();
  }
}

asio::awaitable<void> client_session::run() {
  if (client_->is_tls()) {
    error_code ec;
    client_->expires_after(owner_.config.header_timeout);
    co_await tls_server_handshake(*client_, ec);
    if (ec) {
      owner_.logger->debug("{} TLS handshake failed: {}", peer_, ec.message());
      client_->close();
      co_return;
    }
  }
  while (!owner_.draining && co_await serve_next()) {
  }
  co_await client_->shutdown_send();
  client_->close();
}

asio::awaitable<bool> client_session::serve_next() {
  const auto& config = owner_.config;
  request_parser request;
  configure_head_parser(request, config.max_header_bytes);
  idle_ = client_buffer_.size() == 0;
  const head_read head = co_await read_head(*client_, client_buffer_, request,
                                            {config.client_idle_timeout, config.header_timeout});
  idle_ = false;
  if (head.ec && ends_in_silence(head, *client_)) {
    co_return false;
  }
  exchange one(owner_, {*client_, client_buffer_, peer_});
  co_return co_await one.serve(request, head);
}

} // namespace s3fault::proxy
