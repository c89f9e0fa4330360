// One connection of the origin, request after request:
//
//   read head ──> origin_service::begin ──> answer now ─────────────────────────┐
//                                      └──> body_consumer <── body (64 KiB at a time)
//                                             └── finish() ──> answer ─────────┤
//   write head ──> body: XML string, or the object's bytes via object_reader <──┘
//
// A body the answer did not need is read and dropped when small, else the connection is
// closed after the answer (lingering a few seconds so the client can read it).
#include "conformance/origin/object_reader.hpp"
#include "conformance/origin/origin_worker.hpp"
#include "runtime/socket_ready.hpp"
#include "text/text.hpp"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/buffer_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/status.hpp>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/sendfile.h>

#include <array>
#include <cerrno>
#include <limits>
#include <optional>

namespace s3fault::origin {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using error_code = boost::system::error_code;
using steady = std::chrono::steady_clock;

constexpr std::size_t scratch_size = 256 * 1024;
// The connection's read buffer: heads, and the body on its way to the parser.
constexpr std::size_t read_buffer_size = 64 * 1024;
// In-memory object bytes are written straight from storage, this much per write.
constexpr std::size_t memory_piece = 4 * 1024 * 1024;
// A body nobody wants is read and dropped, keeping the connection, when at most this long.
constexpr std::uint64_t drop_body_limit = 1024 * 1024;
// TCP_NOTSENT_LOWAT: the socket is writable again once less than this is queued unsent.
constexpr int not_sent_low_water = 128 * 1024;
constexpr auto linger_time = std::chrono::seconds(5);

auto use_ec(error_code& ec) {
  return asio::redirect_error(asio::use_awaitable, ec);
}

double ms_since(steady::time_point start) {
  return std::chrono::duration<double, std::milli>(steady::now() - start).count();
}

bool is_quiet_end(const error_code& ec) {
  return ec == http::error::end_of_stream || ec == asio::error::eof ||
         ec == beast::error::timeout || ec == asio::error::operation_aborted ||
         ec == asio::error::connection_reset || ec == http::error::partial_message ||
         ec == asio::error::bad_descriptor;
}

std::string reason_phrase(unsigned status) {
  const auto text = http::obsolete_reason(http::int_to_status(status));
  return text.empty() ? std::string("Unknown") : std::string(text);
}

bool has_no_body(unsigned status) {
  return status / 100 == 1 || status == 204 || status == 304;
}

std::string serialize_head(const origin_response& response, bool close) {
  std::string out =
      "HTTP/1.1 " + std::to_string(response.status) + " " + reason_phrase(response.status) + "\r\n";
  for (const auto& [name, value] : response.headers) {
    out += name;
    out += ": ";
    // A value can never end the line early (operations refuse such values; this is the
    // last line of defence against header injection).
    for (char c : value) {
      out += (c == '\r' || c == '\n') ? ' ' : c;
    }
    out += "\r\n";
  }
  if (!has_no_body(response.status)) {
    out += "Content-Length: " + std::to_string(response.body_length()) + "\r\n";
  }
  if (close) {
    out += "Connection: close\r\n";
  }
  out += "\r\n";
  return out;
}

using request_parser = http::request_parser<http::buffer_body>;

request_head head_of(const request_parser& parser) {
  const auto& message = parser.get();
  request_head head;
  head.method = std::string(message.method_string());
  head.target = std::string(message.target());
  for (const auto& field : message) {
    head.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
  }
  if (const auto length = parser.content_length()) {
    head.content_length = *length;
  }
  head.chunked = parser.chunked();
  return head;
}

bool expects_continue(const request_head& head) {
  const auto expect = head.header("expect");
  return expect && text::iequal(*expect, "100-continue");
}

} // namespace

/// The state of the request being served.
struct origin_session::exchange {
  request_parser parser;
  request_head head;
  request_record record;
  std::optional<s3_operation> op; // once routed
  steady::time_point started = steady::now();
};

origin_session::origin_session(origin_worker& worker, tcp::socket socket, std::string peer)
    : worker_(worker), stream_(std::move(socket)), peer_(std::move(peer)) {
  worker_.sessions.insert(this);
  // Beast reads at most the buffer's free capacity (at least 512 bytes) per system call: give
  // it room, or a body arrives 512 bytes at a time.
  buffer_.reserve(read_buffer_size);
  // Little unsent data per connection: a body is written in slices as the client reads it,
  // so a client draining one connection to the end does not keep it full while its other
  // connections wait (docs/performance.md, "Why some connections starved").
  ::setsockopt(stream_.socket().native_handle(), IPPROTO_TCP, TCP_NOTSENT_LOWAT,
               &not_sent_low_water, sizeof not_sent_low_water);
  error_code ignored;
  stream_.socket().non_blocking(true, ignored); // send_file's sendfile(2) must not block
}

origin_session::~origin_session() {
  worker_.sessions.erase(this);
}

void origin_session::close_if_idle() {
  if (idle_) {
    error_code ignored;
    stream_.socket().close(ignored);
  }
}

std::vector<char>& origin_session::scratch() {
  if (scratch_.empty()) {
    scratch_.resize(scratch_size);
  }
  return scratch_;
}

asio::awaitable<void> origin_session::run() {
  while (!worker_.draining && co_await serve_request()) {
  }
  error_code ignored;
  stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
  stream_.socket().close(ignored);
}

asio::awaitable<bool> origin_session::serve_request() {
  const auto& config = worker_.config;
  auto current = std::make_unique<exchange>();
  auto& parser = current->parser;
  parser.header_limit(config.max_header_bytes);
  // Beast 1.74 reads body_limit(boost::none) as zero: lift it explicitly.
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());

  error_code ec;
  idle_ = buffer_.size() == 0;
  stream_.expires_after(config.idle_timeout);
  co_await http::async_read_header(stream_, buffer_, parser, use_ec(ec));
  idle_ = false;
  current->started = steady::now();
  auto& record = current->record;
  record.client = peer_;
  if (ec) {
    if (is_quiet_end(ec)) {
      co_return false;
    }
    // A malformed head: answer once, then close (the stream is out of step).
    record.method = "-";
    record.target = "-";
    record.request_id = new_request_id();
    auto response =
        error_response(errors::invalid_request("Malformed HTTP request: " + ec.message()), "/");
    worker_.service.finalize(response, record.request_id, false);
    co_await write_response(*current, response, true);
    log_request(*current);
    co_return false;
  }

  current->head = head_of(parser);
  const request_head& head = current->head;
  const bool head_request = head.method == "HEAD";
  record.method = head.method;
  record.target = head.target;
  record.request_id = new_request_id();

  auto begun = worker_.service.begin(head);
  current->op = begun.op;
  record.operation = std::string(operation_name(begun.op));
  origin_response response;
  if (begun.start.consumer) {
    auto read = co_await read_body_into(*current, *begun.start.consumer);
    if (!read.connection_ok) {
      co_return false; // the client went away or stalled mid-body: nobody to answer
    }
    if (read.rejected) {
      response = error_response(std::move(*read.rejected), begun.resource);
    } else {
      try {
        response = begun.start.consumer->finish();
      } catch (const std::exception& error) {
        response = error_response(errors::internal_error(error.what()), begun.resource);
      }
    }
  } else {
    response = std::move(begun.start.response);
  }

  // A body nobody wants: drop it now when small and already on its way, else close after.
  bool body_pending = !parser.is_done();
  if (body_pending && !expects_continue(head) && head.content_length &&
      *head.content_length <= drop_body_limit) {
    co_await discard_rest_of_body(*current);
    body_pending = !parser.is_done();
  }
  worker_.service.finalize(response, record.request_id, head_request);
  const bool close = body_pending || !parser.keep_alive() || worker_.draining;
  const bool written = co_await write_response(*current, response, close);
  if (body_pending && written) {
    co_await discard_rest_of_body(*current);
  }
  log_request(*current);
  co_return written && !close;
}

void origin_session::log_request(exchange& current) {
  current.record.duration_ms = ms_since(current.started);
  if (current.op) {
    worker_.service.counters().record(*current.op, current.record.status,
                                      current.record.request_bytes, current.record.response_bytes);
  }
  if (worker_.logger->should_log(spdlog::level::info)) {
    worker_.logger->info(format_request(current.record, worker_.config.format));
  }
}

asio::awaitable<origin_session::body_read> origin_session::read_body_into(exchange& current,
                                                                          body_consumer& consumer) {
  auto& parser = current.parser;
  auto& buffer = scratch();
  if (!parser.is_done() && expects_continue(current.head)) {
    static constexpr std::string_view go = "HTTP/1.1 100 Continue\r\n\r\n";
    error_code ec;
    stream_.expires_after(worker_.config.io_timeout);
    co_await asio::async_write(stream_, asio::buffer(go.data(), go.size()), use_ec(ec));
    if (ec) {
      current.record.outcome = "client went away: " + ec.message();
      log_request(current);
      co_return body_read{false, std::nullopt};
    }
  }
  while (!parser.is_done()) {
    parser.get().body().data = buffer.data();
    parser.get().body().size = buffer.size();
    error_code ec;
    stream_.expires_after(worker_.config.io_timeout);
    co_await http::async_read(stream_, buffer_, parser, use_ec(ec));
    if (ec == http::error::need_buffer) {
      ec = {};
    }
    const std::size_t got = buffer.size() - parser.get().body().size;
    current.record.request_bytes += got;
    if (ec) {
      current.record.outcome = "request body failed: " + ec.message();
      log_request(current);
      co_return body_read{false, std::nullopt};
    }
    if (got == 0) {
      continue;
    }
    std::optional<s3_error> error;
    try {
      error = consumer.consume(std::string_view(buffer.data(), got));
    } catch (const std::exception& failure) {
      error = errors::internal_error(failure.what());
    }
    if (error) {
      // The rest of the body is not wanted; the caller answers with this error.
      co_return body_read{true, std::move(error)};
    }
  }
  co_return body_read{true, std::nullopt};
}

asio::awaitable<bool> origin_session::write_response(exchange& current,
                                                     const origin_response& response, bool close) {
  auto& record = current.record;
  record.status = response.status;
  if (response.error) {
    record.error_code = response.error->code;
  }
  const std::string head = serialize_head(response, close);
  const bool send_body = !response.head && !has_no_body(response.status);
  error_code ec;
  stream_.expires_after(worker_.config.io_timeout);
  if (send_body && !response.slice && !response.body.empty()) {
    const std::array<asio::const_buffer, 2> pieces = {asio::buffer(head),
                                                      asio::buffer(response.body)};
    co_await asio::async_write(stream_, pieces, use_ec(ec));
    record.response_bytes += response.body.size();
  } else {
    co_await asio::async_write(stream_, asio::buffer(head), use_ec(ec));
  }
  if (ec) {
    record.outcome = "client went away: " + ec.message();
    co_return false;
  }
  if (!send_body || !response.slice) {
    co_return true;
  }
  auto& buffer = scratch();
  object_reader reader(response.slice->object, response.slice->offset, response.slice->length);
  while (reader.remaining() > 0) {
    std::optional<object_reader::file_range> range;
    std::string_view piece;
    try {
      range = reader.next_file_range(memory_piece);
      if (!range) {
        piece = reader.next(buffer, memory_piece);
      }
    } catch (const std::exception& error) {
      // The head promised a length that can no longer be met: cut the connection so the
      // short body cannot look complete.
      record.outcome = std::string("storage read failed mid-body: ") + error.what();
      cut_connection();
      co_return false;
    }
    if (range) {
      const file_sent sent = co_await send_file(*range);
      reader.advance(sent.bytes);
      record.response_bytes += sent.bytes;
      if (!sent.outcome.empty()) {
        record.outcome = sent.outcome;
        cut_connection();
        co_return false;
      }
      continue;
    }
    stream_.expires_after(worker_.config.io_timeout);
    co_await asio::async_write(stream_, asio::buffer(piece.data(), piece.size()), use_ec(ec));
    if (ec) {
      record.outcome = "client went away mid-body: " + ec.message();
      co_return false;
    }
    record.response_bytes += piece.size();
  }
  co_return true;
}

asio::awaitable<origin_session::file_sent>
origin_session::send_file(const object_reader::file_range& range) {
  auto& socket = stream_.socket();
  off_t offset = static_cast<off_t>(range.offset);
  file_sent sent;
  while (sent.bytes < range.length) {
    const ssize_t n =
        ::sendfile(socket.native_handle(), range.fd, &offset, range.length - sent.bytes);
    if (n > 0) {
      sent.bytes += static_cast<std::size_t>(n);
    } else if (n == 0) {
      sent.outcome = "storage read failed mid-body: the file is shorter than recorded";
      break;
    } else if (errno == EAGAIN) {
      if (const auto failure = co_await wait_writable(); !failure.empty()) {
        sent.outcome = failure;
        break;
      }
    } else if (errno != EINTR) {
      sent.outcome = "sending the body failed mid-body: " +
                     error_code(errno, boost::system::system_category()).message();
      break;
    }
  }
  co_return sent;
}

asio::awaitable<std::string> origin_session::wait_writable() {
  // The io timeout applies as it does to every other write: a reader that stops reading for
  // that long is cut.
  const error_code ec = co_await runtime::wait_ready(stream_.socket(), tcp::socket::wait_write,
                                                     worker_.config.io_timeout);
  if (ec == asio::error::timed_out) {
    co_return "client went away mid-body: it read nothing for the io timeout";
  }
  co_return ec ? "client went away mid-body: " + ec.message() : std::string();
}

void origin_session::cut_connection() {
  // Reset, not close: a short body after a promised length must not look complete.
  error_code ignored;
  stream_.socket().set_option(asio::socket_base::linger(true, 0), ignored);
  stream_.socket().close(ignored);
}

asio::awaitable<void> origin_session::discard_rest_of_body(exchange& current) {
  auto& parser = current.parser;
  auto& buffer = scratch();
  const auto deadline = steady::now() + linger_time;
  while (!parser.is_done() && steady::now() < deadline) {
    parser.get().body().data = buffer.data();
    parser.get().body().size = buffer.size();
    error_code ec;
    stream_.expires_at(deadline);
    co_await http::async_read(stream_, buffer_, parser, use_ec(ec));
    if (ec && ec != http::error::need_buffer) {
      break;
    }
  }
}

} // namespace s3fault::origin
