#include "proxy/byte_stream.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <boost/asio/steady_timer.hpp>

#include <linux/sockios.h>
#include <openssl/ssl.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <algorithm>

namespace s3fault::proxy {
namespace beast = boost::beast;

void byte_stream::reset() {
  error_code ignored;
  socket().set_option(asio::socket_base::linger(true, 0), ignored);
  close();
}

asio::awaitable<std::size_t> byte_stream::wait_until_delivered(clock::duration limit) {
  const auto deadline = clock::now() + limit;
  asio::steady_timer poll(co_await asio::this_coro::executor);
  // The queue drains as fast as the peer reads: poll often at first, then back off.
  auto interval = std::chrono::microseconds(200);
  for (;;) {
    int queued = 0;
    if (!socket().is_open() || ::ioctl(socket().native_handle(), SIOCOUTQ, &queued) != 0) {
      co_return 0; // nothing left to deliver on a closed socket
    }
    if (queued <= 0 || clock::now() >= deadline) {
      co_return static_cast<std::size_t>(std::max(queued, 0));
    }
    poll.expires_after(interval);
    error_code ignored;
    co_await poll.async_wait(use_ec(ignored));
    interval = std::min<std::chrono::microseconds>(interval * 2, std::chrono::milliseconds(20));
  }
}

void byte_stream::note_result(const error_code& ec) {
  if (ec == beast::error::timeout) {
    deadline_expired_ = true;
  }
}

bool byte_stream::looks_reusable() {
  auto& sock = socket();
  if (!sock.is_open()) {
    return false;
  }
  char probe;
  const ssize_t n = ::recv(sock.native_handle(), &probe, 1, MSG_PEEK | MSG_DONTWAIT);
  // n == 0: the store closed it; n > 0: bytes nobody asked for (or a TLS alert): both unusable.
  return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

namespace {

class plain_stream final : public byte_stream {
public:
  explicit plain_stream(tcp::socket socket) : stream_(std::move(socket)) {}

  void expires_after(clock::duration timeout) override { stream_.expires_after(timeout); }
  void expires_never() override { stream_.expires_never(); }

  asio::awaitable<std::size_t> read_some(asio::mutable_buffer buffer, error_code& ec) override {
    const std::size_t n = co_await stream_.async_read_some(buffer, use_ec(ec));
    note_result(ec);
    co_return n;
  }
  asio::awaitable<void> write_all(asio::const_buffer buffer, error_code& ec) override {
    co_await asio::async_write(stream_, buffer, use_ec(ec));
    note_result(ec);
  }
  asio::awaitable<void> shutdown_send() override {
    error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    co_return;
  }
  void close() override {
    error_code ignored;
    stream_.socket().close(ignored);
  }
  tcp::socket& socket() override { return stream_.socket(); }
  bool is_tls() const override { return false; }

private:
  beast::tcp_stream stream_;
};

} // namespace

class tls_byte_stream final : public byte_stream {
public:
  tls_byte_stream(tcp::socket socket, asio::ssl::context& context)
      : stream_(beast::tcp_stream(std::move(socket)), context) {}

  void expires_after(clock::duration timeout) override {
    beast::get_lowest_layer(stream_).expires_after(timeout);
  }
  void expires_never() override { beast::get_lowest_layer(stream_).expires_never(); }

  asio::awaitable<std::size_t> read_some(asio::mutable_buffer buffer, error_code& ec) override {
    const std::size_t n = co_await stream_.async_read_some(buffer, use_ec(ec));
    note_result(ec);
    // A peer that closes without close_notify is common (and harmless: HTTP framing tells
    // whether the message was complete), so it reads as an ordinary EOF.
    if (ec == asio::ssl::error::stream_truncated) {
      ec = asio::error::eof;
    }
    co_return n;
  }
  asio::awaitable<void> write_all(asio::const_buffer buffer, error_code& ec) override {
    co_await asio::async_write(stream_, buffer, use_ec(ec));
    note_result(ec);
  }
  asio::awaitable<void> shutdown_send() override {
    error_code ignored;
    expires_after(std::chrono::seconds(1));
    // async_shutdown waits for the peer's close_notify; the short deadline bounds that wait.
    co_await stream_.async_shutdown(use_ec(ignored));
  }
  void close() override {
    error_code ignored;
    beast::get_lowest_layer(stream_).socket().close(ignored);
  }
  tcp::socket& socket() override { return beast::get_lowest_layer(stream_).socket(); }
  bool is_tls() const override { return true; }

  asio::awaitable<void> handshake(asio::ssl::stream_base::handshake_type type, error_code& ec) {
    co_await stream_.async_handshake(type, use_ec(ec));
  }
  SSL* native_handle() { return stream_.native_handle(); }
  void set_verify_host(const std::string& host) {
    stream_.set_verify_mode(asio::ssl::verify_peer);
    stream_.set_verify_callback(asio::ssl::host_name_verification(host));
  }

private:
  beast::ssl_stream<beast::tcp_stream> stream_;
};

std::unique_ptr<byte_stream> make_plain_stream(tcp::socket socket) {
  return std::make_unique<plain_stream>(std::move(socket));
}

std::unique_ptr<byte_stream> make_tls_stream(tcp::socket socket, asio::ssl::context& context) {
  return std::make_unique<tls_byte_stream>(std::move(socket), context);
}

asio::awaitable<void> tls_server_handshake(byte_stream& stream, error_code& ec) {
  co_await static_cast<tls_byte_stream&>(stream).handshake(asio::ssl::stream_base::server, ec);
}

asio::awaitable<void> tls_client_handshake(byte_stream& stream, const std::string& host,
                                           bool verify, error_code& ec) {
  auto& tls = static_cast<tls_byte_stream&>(stream);
  error_code not_an_ip;
  asio::ip::make_address(host, not_an_ip);
  // SNI carries host names only (RFC 6066); an IP literal is verified but not sent.
  if (not_an_ip && !SSL_set_tlsext_host_name(tls.native_handle(), host.c_str())) {
    ec = error_code(static_cast<int>(::ERR_get_error()), asio::error::get_ssl_category());
    co_return;
  }
  if (verify) {
    tls.set_verify_host(host);
  }
  co_await tls.handshake(asio::ssl::stream_base::client, ec);
}

} // namespace s3fault::proxy
