// What the exchange writes to the client itself: answers of the proxy's own (errors, a fault's
// answer), the first bytes of every answer (which set the time to first byte), and what it
// notes of each answer for the record.
#include "faults/s3_error_body.hpp"
#include "proxy/body_relay.hpp"
#include "proxy/exchange.hpp"
#include "proxy/fault_application.hpp"

#include <boost/asio/steady_timer.hpp>
#include <fmt/format.h>

namespace s3fault::proxy {

asio::awaitable<void> exchange::sleep_for(clock::duration duration) {
  asio::steady_timer timer(co_await asio::this_coro::executor, duration);
  error_code ignored;
  co_await timer.async_wait(use_ec(ignored));
}

asio::awaitable<void> exchange::discard_unread_body(body_framing framing) {
  if (!client_.stream.is_tls()) {
    co_await client_.stream.shutdown_send(); // the error is complete: FIN now, read on
  }
  auto scratch = owner_.buffers.take();
  co_await relay_body(client_.stream, client_.buffer, nullptr, framing, scratch.span(),
                      {.io_timeout = linger_timeout, .deadline = clock::now() + linger_timeout});
}

asio::awaitable<bool> exchange::send_local_response(const faults::local_response& response,
                                                    bool close) {
  const std::string out =
      serialize_local_response(response, head_request_, close, owner_.config.server_header);
  error_code ec;
  co_await write_answer(out, ec);
  if (ec) {
    std::string gone = ec.message();
    if (record_.outcome.ok()) {
      record_.outcome = {outcome_kind::client_gone_before_answer, std::move(gone)};
    } else {
      record_.outcome.asides.push_back("the client went away before the answer: " + gone);
    }
    co_return false;
  }
  record_.status = response.status;
  keep_response_head(out);
  record_.response_bytes =
      head_request_ || status_forbids_body(response.status) ? 0 : response.body.size();
  record_.request_id = std::string(field_in_head_text(out, "x-amz-request-id"));
  record_.error_code = response.status >= 300 ? s3_error_code_of(response.body) : "";
  co_return true;
}

asio::awaitable<void> exchange::send_local_error(unsigned status, std::string_view code,
                                                 std::string_view message, bool close) {
  faults::local_response error;
  error.status = status;
  const std::string request_id = make_request_id();
  error.headers = {{"Content-Type", "application/xml"}, {"x-amz-request-id", request_id}};
  if (!head_request_) {
    error.body = render_s3_error_xml(code, message, resource_, request_id);
  }
  const bool was_ok = record_.outcome.ok();
  if (!co_await send_local_response(error, close)) {
    co_return;
  }
  record_.error_code = std::string(code); // known even when a HEAD's answer has no body
  if (was_ok) {
    record_.outcome = {outcome_kind::request_refused, std::string(message)};
  }
}

asio::awaitable<void> exchange::reset_client_when_delivered() {
  const auto limit = owner_.config.io_timeout;
  if (const auto left = co_await client_.stream.wait_until_delivered(limit)) {
    record_.outcome.asides.push_back(fmt::format(
        "{} bytes still unacknowledged by the client after {} ms", left, limit.count()));
  }
  client_.stream.reset();
}

asio::awaitable<void> exchange::write_answer(std::string_view bytes, error_code& ec) {
  // Taken as the write starts: a socket hands the bytes to the kernel within it, so the client
  // can never have the first one before this time.
  const auto first_byte = clock::now();
  client_.stream.expires_after(owner_.config.io_timeout);
  co_await client_.stream.write_all(asio::buffer(bytes.data(), bytes.size()), ec);
  if (!ec && record_.ttfb_ms < 0) {
    record_.ttfb_ms = ms_between(head_arrived_, first_byte);
  }
}

void exchange::note_store_head() {
  if (record_.store_ttfb_ms < 0) {
    record_.store_ttfb_ms = ms_between(request_sent_, clock::now());
  }
}

void exchange::note_answer(std::string_view answer, std::uint64_t body_bytes) {
  record_.request_id = std::string(field_in_head_text(answer, "x-amz-request-id"));
  if (record_.status >= 400 && body_bytes > 0) {
    record_.error_code = s3_error_code_of(answer.substr(answer.size() - body_bytes));
  }
}

void exchange::keep_response_head(std::string_view answer) {
  if (owner_.config.keeps_heads()) {
    record_.response_headers = redacted_fields_in_head_text(answer);
  }
}

} // namespace s3fault::proxy
