#include "conformance/client/http_connection.hpp"

#include "conformance/client/socket_wait.hpp"
#include "conformance/s3/content_hash.hpp"
#include "conformance/s3/hashing.hpp"
#include "text/text.hpp"

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/asio/ssl/host_name_verification.hpp>
#include <boost/asio/write.hpp>

#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/ssl/ssl_stream.hpp>
#include <span>

#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <limits>
#include <optional>
#include <stdexcept>

namespace s3fault::client {
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;
using steady = std::chrono::steady_clock;
using response_parser = http::response_parser<http::buffer_body>;

namespace {

constexpr std::size_t write_chunk_bytes = 256 * 1024; // per write, so deadlines measure progress
constexpr std::size_t read_chunk_bytes = 64 * 1024;

/// The error of a failed send or recv; false for "try again after a wait".
bool failed(ssize_t n, error_code& ec) {
  if (n >= 0 || errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) {
    return false;
  }
  ec = error_code(errno, boost::system::system_category());
  return true;
}

/// Writes every byte of `pieces` to a plain TCP socket within `timeout`. Plain connections do
/// their I/O with send, recv and poll directly: Asio's reactor costs a timer update and an
/// epoll round per operation, and a bench worker makes tens of thousands of them a second.
error_code send_all(int fd, std::span<iovec> pieces, steady::duration timeout) {
  const auto deadline = steady::now() + timeout;
  while (!pieces.empty()) {
    msghdr message{};
    message.msg_iov = pieces.data();
    message.msg_iovlen = pieces.size();
    ssize_t n = ::sendmsg(fd, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
    error_code ec;
    if (failed(n, ec)) {
      return ec;
    }
    if (n < 0) {
      if (auto waited = wait_for_socket(fd, POLLOUT, deadline)) {
        return waited;
      }
      continue;
    }
    auto sent = static_cast<std::size_t>(n);
    while (!pieces.empty() && sent >= pieces.front().iov_len) {
      sent -= pieces.front().iov_len;
      pieces = pieces.subspan(1);
    }
    if (!pieces.empty()) {
      pieces.front().iov_base = static_cast<char*>(pieces.front().iov_base) + sent;
      pieces.front().iov_len -= sent;
    }
  }
  return {};
}

/// Reads what a plain TCP socket has (at least one byte) within `timeout`; 0 bytes with
/// `ec` set on failure, asio's eof when the store closed.
std::size_t receive_some(int fd, asio::mutable_buffer space, steady::duration timeout,
                         error_code& ec) {
  const auto deadline = steady::now() + timeout;
  for (;;) {
    const ssize_t n = ::recv(fd, space.data(), space.size(), MSG_DONTWAIT);
    if (n > 0) {
      return static_cast<std::size_t>(n);
    }
    if (n == 0) {
      ec = asio::error::eof;
      return 0;
    }
    if (failed(n, ec)) {
      return 0;
    }
    if ((ec = wait_for_socket(fd, POLLIN, deadline))) {
      return 0;
    }
  }
}

/// Connects a non-blocking TCP socket to the first of `endpoints` that accepts before
/// `deadline` (one deadline for all of them). The wait goes through wait_for_socket, so a fiber
/// connecting does not hold its thread. Returns the socket, or nullopt with `ec` set.
std::optional<tcp::socket> connect_socket(asio::io_context& io,
                                          const tcp::resolver::results_type& endpoints,
                                          steady::time_point deadline, error_code& ec) {
  ec = asio::error::host_not_found;
  for (const auto& entry : endpoints) {
    const tcp::endpoint target = entry.endpoint();
    const int fd = ::socket(target.protocol().family(), SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
                            IPPROTO_TCP);
    if (fd < 0) {
      ec = error_code(errno, boost::system::system_category());
      continue;
    }
    if (::connect(fd, target.data(), static_cast<socklen_t>(target.size())) == 0) {
      ec = {};
    } else if (errno != EINPROGRESS) {
      ec = error_code(errno, boost::system::system_category());
    } else if (!(ec = wait_for_socket(fd, POLLOUT, deadline))) {
      int error = 0;
      socklen_t length = sizeof(error);
      ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length);
      ec = error != 0 ? error_code(error, boost::system::system_category()) : error_code();
    }
    if (!ec) {
      tcp::socket socket(io);
      socket.assign(target.protocol(), fd, ec);
      if (!ec) {
        return socket;
      }
    }
    forget_socket(fd);
    ::close(fd);
    if (ec == beast::error::timeout) {
      break;
    }
  }
  return std::nullopt;
}

/// A file descriptor closed when it goes out of scope.
class unique_fd {
public:
  explicit unique_fd(int fd) : fd_(fd) {}
  ~unique_fd() {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  int get() const { return fd_; }

private:
  int fd_;
};

std::string seconds_text(steady::duration d) {
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(d).count();
  return ms % 1000 == 0 ? std::to_string(ms / 1000) + "s" : std::to_string(ms) + "ms";
}

transport_error make_failure(error_code ec, stage where, std::string message,
                             std::uint64_t body_bytes = 0) {
  transport_error failure;
  failure.ec = ec;
  failure.where = where;
  failure.message = std::string(to_string(where)) + ": " + std::move(message);
  failure.body_bytes = body_bytes;
  return failure;
}

transport_error local_failure(const std::string& what) {
  return make_failure(client_errc::local_io, stage::local_io, what + ": " + std::strerror(errno));
}

/// The request head exactly as given: no field is added, removed or re-spelled.
std::string serialize_head(const s3::http_request_view& request) {
  std::string head;
  head.reserve(256);
  head.append(request.method).append(" ").append(request.target).append(" HTTP/1.1\r\n");
  for (const auto& [name, value] : request.headers) {
    head.append(name).append(": ").append(value).append("\r\n");
  }
  head.append("\r\n");
  return head;
}

/// True for the errors that a store closing an idle keep-alive connection produces.
bool is_stale_connection_error(const error_code& ec) {
  return ec == client_errc::closed_before_response || ec == asio::error::connection_reset ||
         ec == asio::error::broken_pipe || ec == asio::error::eof;
}

/// Where the bytes of one response body go, with the running byte count and hashes.
class body_writer {
public:
  body_writer(response& out, const read_options& options, bool success, std::size_t error_cap)
      : out_(out), kind_(success ? options.target.which() : body_target::kind::memory),
        cap_(success ? options.target.cap() : error_cap), options_(options) {
    if (options.sha256) {
      sha256_.emplace(s3::digest_stream::kind::sha256);
    }
    if (options.md5) {
      md5_.emplace(s3::digest_stream::kind::md5);
    }
    if (options.content_hash) {
      content_hash_.emplace();
    }
  }
  ~body_writer() {
    if (fd_ >= 0) {
      ::close(fd_);
    }
  }
  body_writer(const body_writer&) = delete;
  body_writer& operator=(const body_writer&) = delete;

  /// Opens the output file, when the body goes to one.
  transport_error open() {
    if (kind_ == body_target::kind::file) {
      fd_ = ::open(options_.target.path().c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd_ < 0) {
        return local_failure("open " + options_.target.path());
      }
    }
    return {};
  }

  /// Takes the next body bytes; a failure ends the read.
  transport_error deliver(std::string_view data) {
    out_.body_bytes += data.size();
    if (sha256_) {
      sha256_->update(data);
    }
    if (md5_) {
      md5_->update(data);
    }
    if (content_hash_) {
      content_hash_->update(data);
    }
    switch (kind_) {
    case body_target::kind::memory:
      if (out_.body.size() + data.size() > cap_) {
        out_.body.append(data.substr(0, cap_ - out_.body.size()));
        return make_failure(client_errc::body_over_cap, stage::read_body,
                            "body larger than the in-memory cap of " + std::to_string(cap_) +
                                " bytes",
                            out_.body_bytes);
      }
      out_.body.append(data);
      break;
    case body_target::kind::callback:
      if (!options_.target.sink()(data)) {
        return make_failure(client_errc::sink_aborted, stage::read_body,
                            "the body callback stopped the read", out_.body_bytes);
      }
      break;
    case body_target::kind::file:
      while (!data.empty()) {
        const ssize_t n = ::write(fd_, data.data(), data.size());
        if (n < 0 && errno == EINTR) {
          continue;
        }
        if (n <= 0) {
          auto failure = local_failure("write " + options_.target.path());
          failure.body_bytes = out_.body_bytes;
          return failure;
        }
        data.remove_prefix(static_cast<std::size_t>(n));
      }
      break;
    case body_target::kind::discard:
      break;
    }
    return {};
  }

  /// Sets the hashes (of the bytes that arrived, also after a failure).
  void finish() {
    if (sha256_) {
      out_.body_sha256 = s3::to_hex(sha256_->finish_raw());
    }
    if (md5_) {
      out_.body_md5 = s3::to_hex(md5_->finish_raw());
    }
    if (content_hash_) {
      out_.body_content_hash = content_hash_->digest();
    }
  }

private:
  response& out_;
  body_target::kind kind_;
  std::size_t cap_;
  const read_options& options_;
  std::optional<s3::digest_stream> sha256_;
  std::optional<s3::digest_stream> md5_;
  std::optional<s3::content_hasher> content_hash_;
  int fd_ = -1;
};

} // namespace

struct http_connection::impl {
  connection_options options;
  asio::io_context io{1};
  std::unique_ptr<ssl::context> tls_context; // https endpoints only
  std::optional<beast::tcp_stream> plain;
  std::optional<beast::ssl_stream<beast::tcp_stream>> secure;
  beast::flat_buffer buffer; // bytes read from the store and not parsed yet
  std::vector<char> body_chunk = std::vector<char>(read_chunk_bytes);
  std::vector<char> file_chunk;
  std::optional<tcp::resolver::results_type> resolved;
  connection_counters counters;

  explicit impl(connection_options o) : options(std::move(o)) {
    if (options.target.tls) {
      tls_context = std::make_unique<ssl::context>(ssl::context::tls_client);
      error_code ec;
      if (!options.tls.ca_file.empty()) {
        tls_context->load_verify_file(options.tls.ca_file, ec);
        if (ec) {
          throw std::runtime_error("CA file " + options.tls.ca_file + ": " + ec.message());
        }
      } else {
        tls_context->set_default_verify_paths(ec);
        if (ec) {
          throw std::runtime_error("cannot load the system CA certificates: " + ec.message());
        }
      }
    }
  }

  bool is_open() const { return plain.has_value() || secure.has_value(); }

  beast::tcp_stream& lowest() { return secure ? beast::get_lowest_layer(*secure) : *plain; }

  /// Runs one asynchronous operation (started by `start`) to completion on this thread. The
  /// deadline set on the stream before `start` bounds it.
  template <class Start> void run(Start&& start) {
    io.restart();
    start();
    io.run();
  }

  ~impl() { close(); }
  impl(const impl&) = delete;
  impl& operator=(const impl&) = delete;

  void close() {
    error_code ignored;
    if (is_open()) {
      forget_socket(lowest().socket().native_handle());
      lowest().socket().close(ignored);
    }
    secure.reset();
    plain.reset();
    buffer.clear();
  }

  /// An idle connection can be reused when the store has not closed it and sent nothing since.
  bool looks_reusable() {
    auto& socket = lowest().socket();
    if (!socket.is_open()) {
      return false;
    }
    char probe;
    const ssize_t n = ::recv(socket.native_handle(), &probe, 1, MSG_PEEK | MSG_DONTWAIT);
    return n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
  }

  transport_error open_connection() {
    const auto& target = options.target;
    if (!resolved) {
      error_code ec;
      tcp::resolver resolver(io);
      auto results = resolver.resolve(target.host, std::to_string(target.port), ec);
      if (ec) {
        return make_failure(ec, stage::resolve, target.host + ": " + ec.message());
      }
      resolved = std::move(results);
    }
    error_code ec;
    auto connected = connect_socket(io, *resolved, steady::now() + options.timeouts.connect, ec);
    if (!connected) {
      const std::string why = ec == beast::error::timeout
                                  ? "no connection within " + seconds_text(options.timeouts.connect)
                                  : ec.message();
      return make_failure(ec, stage::connect, target.authority() + ": " + why);
    }
    beast::tcp_stream stream(std::move(*connected));
    error_code ignored;
    stream.socket().set_option(tcp::no_delay(true), ignored);
    ++counters.connections_opened;
    if (!target.tls) {
      plain.emplace(std::move(stream));
      return {};
    }
    secure.emplace(std::move(stream), *tls_context);
    const std::string& name =
        options.tls.server_name.empty() ? target.host : options.tls.server_name;
    error_code not_an_ip;
    asio::ip::make_address(name, not_an_ip);
    // SNI carries host names only (RFC 6066): an IP literal is verified but not sent.
    if (not_an_ip && SSL_set_tlsext_host_name(secure->native_handle(), name.c_str()) != 1) {
      ec = error_code(static_cast<int>(::ERR_get_error()), asio::error::get_ssl_category());
      close();
      return make_failure(ec, stage::tls_handshake, "cannot set SNI " + name);
    }
    if (options.tls.insecure) {
      secure->set_verify_mode(ssl::verify_none);
    } else {
      secure->set_verify_mode(ssl::verify_peer);
      secure->set_verify_callback(ssl::host_name_verification(name));
    }
    lowest().expires_after(options.timeouts.connect);
    run([&] { secure->async_handshake(ssl::stream_base::client, [&](error_code e) { ec = e; }); });
    if (ec) {
      close();
      const std::string why = ec == beast::error::timeout
                                  ? "no handshake within " + seconds_text(options.timeouts.connect)
                                  : ec.message();
      return make_failure(ec, stage::tls_handshake, target.authority() + ": " + why);
    }
    lowest().expires_never();
    return {};
  }

  /// Writes `head` (may be empty) then `data`. Empty buffers are left out of the sequence:
  /// Beast's ssl_stream writes only the first buffer of a large sequence, an empty one writes 0
  /// bytes, and async_write takes a 0-byte write as the end (the rest would be lost silently).
  error_code write_buffers(std::string_view head, std::string_view data) {
    if (plain) {
      std::array<iovec, 2> pieces;
      std::size_t count = 0;
      for (const auto piece : {head, data}) {
        if (!piece.empty()) {
          pieces[count++] = iovec{const_cast<char*>(piece.data()), piece.size()};
        }
      }
      return send_all(plain->socket().native_handle(), std::span(pieces.data(), count),
                      options.timeouts.write);
    }
    lowest().expires_after(options.timeouts.write);
    std::array<asio::const_buffer, 2> buffers;
    std::size_t count = 0;
    for (const auto piece : {head, data}) {
      if (!piece.empty()) {
        buffers[count++] = asio::buffer(piece.data(), piece.size());
      }
    }
    const auto sequence = std::span<const asio::const_buffer>(buffers.data(), count);
    error_code ec;
    std::size_t written = 0;
    auto done = [&](error_code e, std::size_t n) {
      ec = e;
      written = n;
    };
    run([&] {
      if (secure) {
        asio::async_write(*secure, sequence, done);
      } else {
        asio::async_write(*plain, sequence, done);
      }
    });
    if (!ec && written != head.size() + data.size()) {
      ec = asio::error::broken_pipe; // never expected; a silent short write must not pass
    }
    return ec;
  }

  /// Writes the head and the body, the head together with the first body chunk.
  transport_error send_request(const std::string& head, const body_source& body) {
    std::string_view pending_head = head;
    std::uint64_t sent = 0;
    auto write = [&](std::string_view data) -> transport_error {
      const error_code ec = write_buffers(pending_head, data);
      pending_head = {};
      if (ec) {
        const std::string why = ec == beast::error::timeout
                                    ? "no progress for " + seconds_text(options.timeouts.write)
                                    : ec.message();
        return make_failure(ec, stage::send_request,
                            why + " after " + std::to_string(sent) + " request body bytes");
      }
      sent += data.size();
      return {};
    };
    switch (body.which()) {
    case body_source::kind::none:
      return write({});
    case body_source::kind::memory: {
      std::string_view rest = body.bytes();
      do {
        const auto part = rest.substr(0, write_chunk_bytes);
        if (auto failure = write(part)) {
          return failure;
        }
        rest.remove_prefix(part.size());
      } while (!rest.empty());
      return {};
    }
    case body_source::kind::file:
      break;
    }
    std::string size_error;
    const auto size = body.size(size_error);
    if (!size) {
      errno = 0;
      return make_failure(client_errc::local_io, stage::local_io, size_error);
    }
    unique_fd fd(::open(body.path().c_str(), O_RDONLY | O_CLOEXEC));
    if (fd.get() < 0) {
      return local_failure("open " + body.path());
    }
    file_chunk.resize(write_chunk_bytes);
    std::uint64_t remaining = *size;
    auto offset = static_cast<off_t>(body.offset());
    do {
      const auto want =
          static_cast<std::size_t>(std::min<std::uint64_t>(remaining, write_chunk_bytes));
      ssize_t n = 0;
      if (want > 0) {
        n = ::pread(fd.get(), file_chunk.data(), want, offset);
        if (n < 0 && errno == EINTR) {
          continue;
        }
        if (n <= 0) {
          if (n == 0) {
            errno = EIO;
          }
          return local_failure("read " + body.path());
        }
      }
      if (auto failure = write(std::string_view(file_chunk.data(), static_cast<std::size_t>(n)))) {
        return failure;
      }
      offset += n;
      remaining -= static_cast<std::uint64_t>(n);
    } while (remaining > 0);
    return {};
  }

  /// Reads more bytes into `buffer`; returns the count (0 with `ec` set on failure).
  std::size_t read_more(steady::duration timeout, error_code& ec) {
    auto space = buffer.prepare(read_chunk_bytes);
    if (plain) {
      const std::size_t got = receive_some(plain->socket().native_handle(), space, timeout, ec);
      buffer.commit(got);
      return got;
    }
    lowest().expires_after(timeout);
    std::size_t n = 0;
    auto done = [&](error_code e, std::size_t bytes) {
      ec = e;
      n = bytes;
    };
    run([&] {
      if (secure) {
        secure->async_read_some(space, done);
      } else {
        plain->async_read_some(space, done);
      }
    });
    buffer.commit(n);
    // A TLS peer that closes without close_notify is common; the HTTP framing tells whether
    // the message was complete, so this reads as a plain EOF.
    if (ec == ssl::error::stream_truncated) {
      ec = asio::error::eof;
    }
    return n;
  }

  /// Reads one response head into `parser`; false with `out.failure` set on failure.
  bool read_head(response_parser& parser, response& out, steady::time_point start,
                 steady::duration first_byte_timeout) {
    out.raw_head.clear();
    bool need_read = buffer.size() == 0;
    bool got_bytes = buffer.size() > 0;
    for (;;) {
      if (need_read) {
        const bool first = out.timing.first_byte == steady::duration::zero();
        error_code ec;
        read_more(first ? first_byte_timeout : options.timeouts.read_idle, ec);
        if (ec) {
          // Whatever arrived of a head that never completed is kept for the report.
          out.raw_head.append(static_cast<const char*>(buffer.data().data()), buffer.size());
          if (ec == asio::error::eof) {
            ec = got_bytes ? client_errc::closed_inside_head : client_errc::closed_before_response;
          }
          const stage where = first ? stage::wait_first_byte : stage::read_head;
          std::string why = ec.message();
          if (ec == beast::error::timeout) {
            why = first ? "no response byte within " + seconds_text(first_byte_timeout)
                        : "head stalled for " + seconds_text(options.timeouts.read_idle);
          }
          out.failure = make_failure(ec, where, why);
          return false;
        }
        if (first) {
          out.timing.first_byte = steady::now() - start;
        }
        got_bytes = true;
      }
      error_code ec;
      const auto data = buffer.data();
      const std::size_t used = parser.put(data, ec);
      out.raw_head.append(static_cast<const char*>(data.data()), used);
      buffer.consume(used);
      if (parser.is_header_done()) {
        return true;
      }
      if (ec && ec != http::error::need_more) {
        out.raw_head.append(static_cast<const char*>(buffer.data().data()), buffer.size());
        out.failure = make_failure(client_errc::bad_response, stage::read_head,
                                   "unparseable response head: " + ec.message());
        return false;
      }
      need_read = true;
    }
  }

  transport_error short_body_failure(const response& out) const {
    return make_failure(client_errc::short_body, stage::read_body,
                        "connection closed after " + std::to_string(out.body_bytes) + " of " +
                            std::to_string(out.content_length.value_or(0)) +
                            " body bytes (Content-Length)",
                        out.body_bytes);
  }

  transport_error body_read_failure(error_code ec, const response& out) const {
    const std::string why = ec == beast::error::timeout
                                ? "no body byte for " + seconds_text(options.timeouts.read_idle)
                                : ec.message();
    return make_failure(ec, stage::read_body,
                        why + " after " + std::to_string(out.body_bytes) + " body bytes",
                        out.body_bytes);
  }

  /// A Content-Length body on plain TCP, read straight into the body chunk: through the parser
  /// every byte would be copied once more, from the read buffer into the chunk. Reads are as
  /// large as on the parser path, and bytes past the body are left in `buffer` as it leaves them.
  bool read_counted_body(std::uint64_t remaining, response& out, body_writer& writer,
                         bool& peer_closed) {
    while (remaining > 0) {
      std::string_view piece;
      std::size_t got = 0;
      if (buffer.size() > 0) {
        piece = std::string_view(static_cast<const char*>(buffer.data().data()), buffer.size());
      } else {
        error_code ec;
        got = receive_some(plain->socket().native_handle(), asio::buffer(body_chunk),
                           options.timeouts.read_idle, ec);
        if (ec == asio::error::eof) {
          peer_closed = true;
          out.failure = short_body_failure(out);
          return false;
        }
        if (ec) {
          out.failure = body_read_failure(ec, out);
          return false;
        }
        piece = std::string_view(body_chunk.data(), got);
      }
      const auto body_part = piece.substr(
          0, static_cast<std::size_t>(std::min<std::uint64_t>(piece.size(), remaining)));
      if (auto failure = writer.deliver(body_part)) {
        out.failure = std::move(failure);
        return false;
      }
      remaining -= body_part.size();
      if (got == 0) {
        buffer.consume(body_part.size());
      } else if (got > body_part.size()) { // what follows the body stays unparsed
        const auto rest = piece.substr(body_part.size());
        asio::buffer_copy(buffer.prepare(rest.size()), asio::buffer(rest.data(), rest.size()));
        buffer.commit(rest.size());
      }
    }
    return true;
  }

  /// Reads the body according to its framing: true when it ended where the framing says, false
  /// with `out.failure` set on failure. Sets `peer_closed` when the store closed the connection
  /// (the end of an until-close body).
  bool read_body(response_parser& parser, response& out, body_writer& writer, bool& peer_closed) {
    if (plain && !parser.is_done() && !parser.chunked() && parser.content_length()) {
      return read_counted_body(*parser.content_length_remaining(), out, writer, peer_closed);
    }
    bool need_read = buffer.size() == 0;
    while (!parser.is_done()) {
      if (need_read) {
        error_code ec;
        read_more(options.timeouts.read_idle, ec);
        if (ec == asio::error::eof) {
          peer_closed = true;
          error_code eof_ec;
          parser.put_eof(eof_ec);
          if (!eof_ec) {
            return true;
          }
          if (parser.chunked()) {
            out.failure = make_failure(client_errc::incomplete_chunked, stage::read_body,
                                       "connection closed inside the chunked body after " +
                                           std::to_string(out.body_bytes) + " body bytes",
                                       out.body_bytes);
          } else {
            out.failure = short_body_failure(out);
          }
          return false;
        }
        if (ec) {
          out.failure = body_read_failure(ec, out);
          return false;
        }
      }
      auto& body = parser.get().body();
      body.data = body_chunk.data();
      body.size = body_chunk.size();
      error_code ec;
      const std::size_t used = parser.put(buffer.data(), ec);
      buffer.consume(used);
      const std::size_t got = body_chunk.size() - body.size;
      body.data = nullptr;
      if (got > 0) {
        if (auto failure = writer.deliver(std::string_view(body_chunk.data(), got))) {
          out.failure = std::move(failure);
          return false;
        }
      }
      if (ec && ec != http::error::need_buffer && ec != http::error::need_more) {
        out.failure = make_failure(client_errc::bad_response, stage::read_body,
                                   "bad body framing after " + std::to_string(out.body_bytes) +
                                       " body bytes: " + ec.message(),
                                   out.body_bytes);
        return false;
      }
      need_read = buffer.size() == 0 || ec == http::error::need_more;
    }
    return true;
  }

  /// One attempt: head(s), then the body. Leaves the connection open only when it can be
  /// reused.
  void read_response(response& out, bool head_request, const read_options& read,
                     steady::time_point start, steady::duration first_byte_timeout) {
    std::optional<response_parser> parser;
    for (;;) {
      parser.emplace();
      parser->header_limit(options.max_head_bytes);
      parser->body_limit(std::numeric_limits<std::uint64_t>::max());
      if (head_request) {
        parser->skip(true);
      }
      if (!read_head(*parser, out, start, first_byte_timeout)) {
        close();
        return;
      }
      const unsigned status = parser->get().result_int();
      if (status < 100 || status >= 200 || status == 101) {
        break;
      }
      // An interim response (100 Continue, 103 Early Hints): the final one follows.
      out.interim_statuses.push_back(status);
    }
    const auto& head = parser->get();
    out.status = head.result_int();
    out.reason = std::string(head.reason());
    for (const auto& field : head) {
      out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    }
    if (const auto length = parser->content_length()) {
      out.content_length = *length;
    }
    out.chunked = parser->chunked();

    const bool success = out.status >= 200 && out.status < 300;
    // A HEAD response has no body: nothing may be created or written for it.
    read_options no_body;
    no_body.target = body_target::discard();
    body_writer writer(out, head_request ? no_body : read, success, options.max_error_body_bytes);
    bool peer_closed = false;
    bool complete = false; // the body ended where its framing says
    if (auto failure = writer.open()) {
      out.failure = std::move(failure);
    } else {
      complete = read_body(*parser, out, writer, peer_closed);
    }
    writer.finish();
    if (!out.failure && complete) {
      out.bytes_after_message = buffer.size();
    }
    const bool reusable =
        !out.failure && !peer_closed && complete && parser->keep_alive() && buffer.size() == 0;
    if (!reusable) {
      close();
    }
  }

  /// The store may answer and close before the whole request was sent (a 403 or 413 while the
  /// body is still going out). Whatever it answered is kept; the failure stays the send
  /// failure, so such a response never reads as a success.
  void read_early_answer(response& out, transport_error send_failure, bool head_request,
                         const read_options& read, steady::time_point start) {
    const bool peer_gave_up = send_failure.ec == asio::error::broken_pipe ||
                              send_failure.ec == asio::error::connection_reset;
    if (peer_gave_up && is_open()) {
      response early;
      early.timing.connect = out.timing.connect;
      early.connection_reused = out.connection_reused;
      early.retried_on_new_connection = out.retried_on_new_connection;
      read_response(early, head_request, read, start, std::chrono::seconds(1));
      if (early.head_received()) {
        send_failure.message += " (the store answered " + std::to_string(early.status) +
                                " before the whole request was sent)";
        early.failure = std::move(send_failure);
        out = std::move(early);
        close();
        return;
      }
    }
    close();
    out.failure = std::move(send_failure);
  }

  response exchange(const s3::http_request_view& request, const body_source& body,
                    const read_options& read) {
    const auto start = steady::now();
    const std::string head = serialize_head(request);
    const bool head_request = text::iequal(request.method, "HEAD");
    ++counters.exchanges;
    response out;
    for (int attempt = 0;; ++attempt) {
      out = response{};
      out.retried_on_new_connection = attempt > 0;
      bool reused = false;
      if (is_open()) {
        reused = buffer.size() == 0 && looks_reusable();
        if (!reused) {
          close();
        }
      }
      if (!reused) {
        const auto connect_start = steady::now();
        out.failure = open_connection();
        out.timing.connect = steady::now() - connect_start;
        if (out.failure) {
          break;
        }
      }
      out.connection_reused = reused;
      const bool may_retry = reused && attempt == 0 && options.retry_on_stale_connection;
      if (auto failure = send_request(head, body)) {
        if (may_retry && is_stale_connection_error(failure.ec)) {
          close();
          ++counters.stale_retries;
          continue;
        }
        read_early_answer(out, std::move(failure), head_request, read, start);
        break;
      }
      read_response(out, head_request, read, start, options.timeouts.first_byte);
      if (may_retry && !out.head_received() && out.timing.first_byte == steady::duration::zero() &&
          is_stale_connection_error(out.failure.ec)) {
        ++counters.stale_retries;
        continue;
      }
      break;
    }
    if (out.connection_reused) {
      ++counters.reused;
    }
    out.timing.total = steady::now() - start;
    return out;
  }
};

http_connection::http_connection(connection_options options)
    : impl_(std::make_unique<impl>(std::move(options))) {}
http_connection::~http_connection() = default;
http_connection::http_connection(http_connection&&) noexcept = default;
http_connection& http_connection::operator=(http_connection&&) noexcept = default;

response http_connection::exchange(const s3::http_request_view& request, const body_source& body,
                                   const read_options& options) {
  return impl_->exchange(request, body, options);
}

void http_connection::close() {
  impl_->close();
}
transport_error http_connection::open() {
  return impl_->is_open() ? transport_error{} : impl_->open_connection();
}
bool http_connection::is_open() const {
  return impl_->is_open();
}
const connection_counters& http_connection::counters() const {
  return impl_->counters;
}
const connection_options& http_connection::options() const {
  return impl_->options;
}

} // namespace s3fault::client
