// The exchange with the store up to its final response head: the request sent (a stale pooled
// connection replaced once), interim responses passed on, and a store that failed or refused
// turned into the client's 502 or 504.
#include "proxy/client_body_failure.hpp"
#include "proxy/exchange.hpp"
#include "proxy/request_edits.hpp"
#include "runtime/log_redaction.hpp"

#include <boost/beast/http/error.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace s3fault::proxy {
namespace {

// Interim (1xx) responses passed on before the final one; each restarts the wait for the next
// head, so a store sending them forever would hold the exchange forever. Real stores send one.
constexpr int max_interim_responses = 8;

} // namespace

asio::awaitable<std::optional<exchange::ending>> exchange::send_request() {
  const auto& config = owner_.config;
  const std::string request_head = head_for_store();
  for (int attempt = 0;; ++attempt) {
    upstream_ = attempt == 0 ? owner_.pool.take_idle() : nullptr;
    record_.upstream_used = true;
    record_.upstream_reused = upstream_ != nullptr;
    error_code ec;
    if (!upstream_) {
      upstream_ = co_await owner_.pool.connect(ec);
      if (!upstream_) {
        record_.outcome = {outcome_kind::upstream_connect_failed, ec.message()};
        co_return co_await refuse_unsent(is_timeout(ec), "cannot be reached", ec);
      }
    }
    upstream_->stream->expires_after(config.io_timeout);
    co_await upstream_->stream->write_all(asio::buffer(request_head), ec);
    if (ec) {
      upstream_->stream->close();
      if (record_.upstream_reused) {
        continue; // a pooled connection the store had already closed: use a fresh one
      }
      record_.outcome = {outcome_kind::upstream_write_failed, ec.message()};
      co_return co_await refuse_unsent(false, "closed the connection", ec);
    }
    request_sent_ = clock::now();
    if (request_framing_.has_body()) {
      start_upload(co_await asio::this_coro::executor);
    }
    const final_head_read read = co_await read_final_head();
    if (upload_) {
      upload_->response_head_arrived();
    }
    // A pooled connection the store had closed fails at once (EOF, reset) without a response
    // byte: most likely the store closed it before the request came, so it is sent again. A
    // timeout says nothing of the kind: the store has the request and may be acting on it.
    const bool retry_is_safe = read.head.ec && !read.head.got_bytes && !is_timeout(read.head.ec) &&
                               record_.upstream_reused && (!upload_ || !upload_->started_reading());
    if (!retry_is_safe) {
      co_return co_await check_store_answer(read);
    }
    upstream_->stream->close();
    if (upload_) {
      co_await upload_->finish(linger_timeout);
      upload_.reset();
    }
  }
}

std::string exchange::head_for_store() {
  if (!decision_ || decision_->request_actions.empty()) {
    return serialize_request_head(*request_);
  }
  auto edited = edit_request(*request_, *decision_, owner_.config.resigner);
  if (!edited.problem.empty()) {
    owner_.logger->warn("{} {} {}: request edit not applied: {}", client_.peer, record_.method,
                        runtime::redact_target(record_.target), edited.problem);
  }
  if (!edited.head) {
    return serialize_request_head(*request_);
  }
  store_got_head_ = edited.method == "HEAD";
  return std::move(*edited.head);
}

void exchange::start_upload(const asio::any_io_executor& executor) {
  auto* filters =
      decision_ && !decision_->request_filters.empty() ? &decision_->request_filters : nullptr;
  upload_ = std::make_unique<request_upload>(
      owner_, executor,
      request_upload::settings{.client = client_.stream,
                               .client_buffer = client_.buffer,
                               .store = *upstream_,
                               .framing = request_framing_,
                               .wait_for_continue = expects_continue(*request_),
                               .filters = filters});
  upload_->start();
}

asio::awaitable<exchange::ending> exchange::refuse_unsent(bool timeout, std::string_view what,
                                                          const error_code& ec) {
  // The store never saw this request: the client gets an error, and a body it is still
  // sending is read and dropped so it can read that error.
  const bool has_body = request_framing_.has_body();
  co_await send_local_error(timeout ? 504 : 502, timeout ? "GatewayTimeout" : "BadGateway",
                            store_error(what, ec), has_body);
  if (has_body) {
    co_await discard_unread_body(request_framing_);
  }
  close_client_ = has_body;
  co_return ending::answered(false);
}

std::string exchange::store_error(std::string_view what, const error_code& ec) const {
  return fmt::format("s3fault: the store at {} {}: {}", owner_.config.upstream.host_and_port(),
                     what, ec.message());
}

asio::awaitable<exchange::final_head_read> exchange::read_final_head() {
  const auto& config = owner_.config;
  final_head_read read;
  // While a body goes up, the upload bounds the wait: from its last byte, not from the head.
  const head_deadlines deadlines{upload_ ? no_first_byte_deadline : config.upstream_timeout,
                                 config.header_timeout};
  plain_.reset();
  if (response_untouched()) {
    read.head = co_await read_head_start(*upstream_->stream, upstream_->buffer, deadlines);
    if (read.head.ec || take_plain_head()) {
      co_return read;
    }
  }
  for (int interim = 0;; ++interim) {
    response_.emplace();
    configure_head_parser(*response_, config.max_header_bytes);
    response_->skip(store_got_head_);
    read.head = co_await read_head(*upstream_->stream, upstream_->buffer, *response_, deadlines);
    if (!read.head.ec) {
      note_store_head();
    }
    const unsigned status = read.head.ec ? 0 : response_->get().result_int();
    if (status / 100 != 1 || status == 101) {
      co_return read;
    }
    if (interim == max_interim_responses) {
      read.too_many_interim = true;
      co_return read;
    }
    if (status == 100 && upload_) {
      upload_->release_body();
    }
    // Interim responses are passed on as they come.
    co_await write_answer(serialize_response_head(*response_, false), read.client_write_error);
    if (read.client_write_error) {
      co_return read;
    }
  }
}

bool exchange::take_plain_head() {
  auto& buffer = upstream_->buffer;
  const auto bytes = buffer.data();
  plain_response_head head;
  if (!read_plain_response_head({static_cast<const char*>(bytes.data()), bytes.size()},
                                store_got_head_, owner_.config.max_header_bytes, head)) {
    return false;
  }
  buffer.consume(head.size);
  plain_ = std::move(head);
  note_store_head();
  return true;
}

asio::awaitable<std::optional<exchange::ending>>
exchange::check_store_answer(const final_head_read& read) {
  if (read.client_write_error) {
    record_.outcome = {outcome_kind::client_went_away, read.client_write_error.message()};
    co_return ending::cut(ending::client_side::close);
  }
  if (read.too_many_interim) {
    upstream_->stream->close();
    record_.outcome = {outcome_kind::too_many_interim};
    co_await send_local_error(502, "BadGateway",
                              fmt::format("s3fault: the store at {} sent more than {} interim "
                                          "(1xx) responses",
                                          owner_.config.upstream.host_and_port(),
                                          max_interim_responses),
                              true);
    close_client_ = true;
    co_return ending::answered(false);
  }
  if (!read.head.ec && store_status() != 101) {
    record_.store_status = store_status(); // before a header fault may change it
    co_return std::nullopt;                // a final head: on to the response's faults
  }
  if (upload_ && upload_->reset_by_fault()) {
    // The upload's fault reset both connections: the client never got an HTTP answer.
    record_.outcome = {outcome_kind::fault_upload_reset, std::to_string(upload_->outcome().bytes)};
    if (const auto left = upload_->unacknowledged_at_reset()) {
      record_.outcome.asides.push_back(
          fmt::format("{} still unacknowledged by the store when the wait for them ran out", left));
    }
    co_return ending::cut(ending::client_side::reset);
  }
  if (upload_ && upload_->body_relayed()) {
    if (const auto failure = client_body_failure_of(upload_->outcome())) {
      co_return co_await refuse_client_body(*failure);
    }
  }
  co_return co_await refuse_failed_store(read);
}

asio::awaitable<exchange::ending> exchange::refuse_failed_store(const final_head_read& read) {
  upstream_->stream->close();
  // A store that stops reading the body is cut by the upload's write deadline, which closes or
  // cancels the connection under the head's read (nothing else does while the body still
  // moves): that too is a store out of time.
  const bool cancelled_mid_body =
      read.head.ec == asio::error::operation_aborted && upload_ && !upload_->body_relayed();
  const bool stopped_reading = upload_ && !is_timeout(read.head.ec) &&
                               (cancelled_mid_body || upstream_->stream->deadline_expired());
  const bool timeout =
      is_timeout(read.head.ec) || stopped_reading || (upload_ && upload_->response_timed_out());
  const error_code cause = timeout        ? make_error_code(asio::error::timed_out)
                           : read.head.ec ? read.head.ec
                                          : make_error_code(http::error::bad_version);
  record_.outcome = {outcome_kind::no_store_response, cause.message()};
  const std::string_view what = stopped_reading ? "stopped reading the request body"
                                : timeout       ? "did not answer in time"
                                                : "failed before answering";
  co_await send_local_error(timeout ? 504 : 502, timeout ? "GatewayTimeout" : "BadGateway",
                            store_error(what, cause), true);
  // The upload drains what the client still sends (its writes to the store now fail), so the
  // client can read the error instead of meeting a reset; end() bounds that wait.
  close_client_ = true;
  co_return ending::answered(false);
}

asio::awaitable<exchange::ending> exchange::refuse_client_body(const client_body_failure& failure) {
  record_.outcome = {outcome_kind::client_body_refused, failure.what};
  if (!failure.answerable) {
    co_return ending::cut(ending::client_side::close);
  }
  // The upload closed the store connection, so the store does not wait for the rest. The
  // client is told its mistake; what it still sends is read and dropped for a while, so that
  // closing does not reset the connection before it has read the answer.
  co_await send_local_error(400, failure.code, "s3fault: " + failure.what, true);
  co_await discard_unread_body({.how = body_framing::kind::until_close});
  close_client_ = true;
  co_return ending::answered(false);
}

} // namespace s3fault::proxy
