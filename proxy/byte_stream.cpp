#include "proxy/byte_stream.hpp"

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>

#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>

#include <linux/sockios.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
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

namespace {

// True once the peer reset the connection (it closed its socket before our bytes arrived): the
// kernel has dropped the send queue, but SIOCOUTQ still counts the bytes never acknowledged, and
// they never will be.
bool connection_gone(int fd) {
  tcp_info info{};
  socklen_t size = sizeof info;
  return ::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &size) == 0 && info.tcpi_state == TCP_CLOSE;
}

} // namespace

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
    if (connection_gone(socket().native_handle())) {
      co_return 0; // nothing can be delivered any more (the caller's RST changes nothing)
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

/// The deadlines of one plain connection, for the price of a clock read per operation. Beast's
/// tcp_stream starts and cancels a timer around every read and write (a fifth of a small
/// exchange's instructions); here one timer per connection runs towards the nearest deadline
/// of a pending operation, and is moved only when it is idle or must fire sooner. When it fires
/// early (a later operation has a later deadline), it runs on to the next one.
///
/// Shared with the timer's handler, which may run after the stream is gone: `socket` is then
/// null and the handler does nothing.
struct lazy_deadlines : std::enable_shared_from_this<lazy_deadlines> {
  struct direction {
    clock::time_point deadline = clock::time_point::max(); // for the next or pending operation
    bool pending = false;
    bool timed_out = false; // the pending operation was cut off by its deadline
  };

  explicit lazy_deadlines(tcp::socket& s) : timer(s.get_executor()), socket(&s) {}

  asio::steady_timer timer;
  tcp::socket* socket;
  direction read;
  direction write;
  bool running = false;
  clock::time_point running_until{};
  std::uint64_t generation = 0; // tells a handler of a replaced wait from the current one

  void expires_at(clock::time_point deadline) {
    // As Beast's: the new deadline applies to each direction not in the middle of an operation.
    for (direction* d : {&read, &write}) {
      if (!d->pending) {
        d->deadline = deadline;
      }
    }
  }

  /// Lets the timer go: a wait left running would keep the worker's event loop busy (a
  /// graceful stop waits for it to run dry) for as long as an idle connection's last deadline.
  void stop() {
    if (running) {
      running = false;
      ++generation;
      timer.cancel();
    }
  }

  void start(direction& d) {
    d.pending = true;
    d.timed_out = false;
    if (d.deadline != clock::time_point::max() && (!running || d.deadline < running_until)) {
      run_until(d.deadline);
    }
  }

  void run_until(clock::time_point when) {
    running = true;
    running_until = when;
    timer.expires_at(when); // a wait already started ends with operation_aborted
    timer.async_wait([self = shared_from_this(), current = ++generation](const error_code& ec) {
      self->fired(ec, current);
    });
  }

  void fired(const error_code& ec, std::uint64_t of_generation) {
    if (ec || of_generation != generation || socket == nullptr) {
      return; // replaced by a sooner wait, or cancelled because the stream is gone
    }
    running = false;
    const auto now = clock::now();
    bool expired = false;
    auto next = clock::time_point::max();
    for (direction* d : {&read, &write}) {
      if (!d->pending) {
        continue;
      }
      if (d->deadline <= now) {
        d->timed_out = true;
        expired = true;
      }
      next = std::min(next, d->deadline);
    }
    if (expired) {
      error_code ignored;
      socket->close(ignored); // the pending operations end; the one(s) out of time say so
    } else if (next != clock::time_point::max()) {
      run_until(next);
    }
  }

  /// After an operation: its error, or Beast's timeout error when its deadline cut it off.
  void finish(direction& d, error_code& ec) {
    d.pending = false;
    if (d.timed_out) {
      ec = beast::error::timeout;
    }
  }
};

class plain_stream final : public byte_stream {
public:
  explicit plain_stream(tcp::socket socket)
      : socket_(std::move(socket)), deadlines_(std::make_shared<lazy_deadlines>(socket_)) {}
  ~plain_stream() override {
    deadlines_->socket = nullptr;
    deadlines_->stop();
  }
  plain_stream(const plain_stream&) = delete;
  plain_stream& operator=(const plain_stream&) = delete;

  void expires_after(clock::duration timeout) override {
    deadlines_->expires_at(clock::now() + timeout);
  }
  void expires_never() override {
    deadlines_->expires_at(clock::time_point::max());
    if (!deadlines_->read.pending && !deadlines_->write.pending) {
      deadlines_->stop(); // an idle connection (a pooled one) holds no timer
    }
  }

  asio::awaitable<std::size_t> read_some(asio::mutable_buffer buffer, error_code& ec) override {
    deadlines_->start(deadlines_->read);
    const std::size_t n = co_await socket_.async_read_some(buffer, use_ec(ec));
    deadlines_->finish(deadlines_->read, ec);
    note_result(ec);
    co_return n;
  }
  asio::awaitable<void> write_all(asio::const_buffer buffer, error_code& ec) override {
    deadlines_->start(deadlines_->write);
    co_await asio::async_write(socket_, buffer, use_ec(ec));
    deadlines_->finish(deadlines_->write, ec);
    note_result(ec);
  }
  asio::awaitable<void> shutdown_send() override {
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    co_return;
  }
  void close() override {
    error_code ignored;
    socket_.close(ignored);
    deadlines_->stop();
  }
  tcp::socket& socket() override { return socket_; }
  bool is_tls() const override { return false; }

private:
  tcp::socket socket_;
  std::shared_ptr<lazy_deadlines> deadlines_;
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
