#include "proxy/client_session.hpp"

#include "faults/s3_error_body.hpp"
#include "proxy/body_relay.hpp"
#include "proxy/completion_event.hpp"
#include "proxy/exchange_metrics.hpp"
#include "proxy/fault_application.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/status.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace s3fault::proxy {
namespace {

// A request with `Expect: 100-continue` waits this long for the store's 100 before its body is
// sent anyway, as curl and botocore do.
constexpr auto continue_wait = std::chrono::seconds(1);
// When the store answers before the request body has all arrived, the client gets this long to
// finish sending it before the connection is closed under it.
constexpr auto linger_timeout = std::chrono::seconds(5);
// A `hang` fault waits at most this long for the client to give up.
constexpr auto hang_limit = std::chrono::hours(1);
// Response bodies up to this size that arrived with their head are sent in the head's write.
constexpr std::uint64_t inline_body_limit = 64 * 1024;
// Interim (1xx) responses passed on before the final one; each restarts the wait for the next
// head, so a store sending them forever would hold the exchange forever. Real stores send one.
constexpr int max_interim_responses = 8;

double ms_between(clock::time_point from, clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

bool is_timeout(const error_code& ec) {
  return ec == asio::error::timed_out || ec == boost::beast::error::timeout;
}

std::string_view path_of(std::string_view target) {
  return target.substr(0, target.find('?'));
}

} // namespace

/// State shared by an exchange and the coroutine that relays its request body, so that the
/// store's response can be read while the body is still being sent (100-continue, early errors).
struct client_session::request_pump {
  explicit request_pump(const asio::any_io_executor& executor) : go(executor), finished(executor) {}
  completion_event go;       // the store sent 100 Continue, or the exchange gave up waiting
  completion_event finished; // the pump coroutine has returned
  bool started_reading = false;
  bool abort = false;
  relay_outcome outcome;
};

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
  while (!owner_.draining && co_await serve_exchange()) {
  }
  co_await client_->shutdown_send();
  client_->close();
}

asio::awaitable<bool> client_session::serve_exchange() {
  const auto& config = owner_.config;
  request_parser request;
  configure_head_parser(request, config.max_header_bytes);
  idle_ = client_buffer_.size() == 0;
  const head_read head = co_await read_head(*client_, client_buffer_, request,
                                            {config.client_idle_timeout, config.header_timeout});
  idle_ = false;
  const auto started = clock::now();
  exchange_record record;
  record.client = peer_;
  if (head.ec) {
    // Silence for a peer that closed or idled out between requests, that we closed, or whose
    // head did not complete in time (the deadline closes the socket: slow heads get no answer).
    if (!head.got_bytes || !client_->is_open() || is_timeout(head.ec) ||
        head.ec == http::error::partial_message || head.ec == asio::error::connection_reset) {
      co_return false;
    }
    record.method = "-";
    record.target = "-";
    if (head.ec == http::error::header_limit) {
      co_await send_local_error(
          400, "RequestHeaderSectionTooLarge",
          fmt::format("s3fault: the request head exceeds {} bytes", config.max_header_bytes), "",
          false, true, record);
    } else {
      co_await send_local_error(400, "InvalidRequest",
                                "s3fault: malformed request head: " + head.ec.message(), "", false,
                                true, record);
    }
    record.duration_ms = ms_between(started, clock::now());
    log_exchange(record);
    co_return false;
  }

  record.method = std::string(request.get().method_string());
  record.target = std::string(request.get().target());
  if (const auto range = request.get().find(http::field::range); range != request.get().end()) {
    record.range = std::string(range->value());
  }
  if (const auto host = request.get().find(http::field::host); host != request.get().end()) {
    record.host = std::string(host->value());
  }
  std::string why;
  const auto framing = request_body_framing(request, why);
  bool keep_open = false;
  if (!framing) {
    co_await send_local_error(400, "InvalidRequest", "s3fault: rejected request: " + why,
                              path_of(record.target), request.get().method() == http::verb::head,
                              true, record);
  } else {
    fault_context faults = decide_faults(request);
    keep_open = co_await relay_to_store(request, *framing, faults, record) && request.keep_alive();
    if (faults.decision) {
      record.faults = describe_injections(faults.decision->injected);
    }
  }
  record.duration_ms = ms_between(started, clock::now());
  log_exchange(record);
  co_return keep_open && !owner_.draining;
}

client_session::fault_context client_session::decide_faults(const request_parser& request) const {
  fault_context context;
  if (!owner_.config.faults) {
    return context;
  }
  context.rules = owner_.config.faults->current();
  if (context.rules->rules().empty()) {
    return context; // no rules: not even the classification is paid for
  }
  const auto& head = request.get();
  const auto host = head.find(http::field::host);
  const auto range = head.find(http::field::range);
  const std::string_view method(head.method_string().data(), head.method_string().size());
  context.request = faults::classify_request(
      {method, std::string_view(head.target().data(), head.target().size()),
       host == head.end() ? std::string_view()
                          : std::string_view(host->value().data(), host->value().size()),
       head.find("x-amz-copy-source") != head.end(),
       range == head.end() ? std::string_view()
                           : std::string_view(range->value().data(), range->value().size())},
      owner_.config.s3_domains);
  context.decision =
      context.rules->decide(context.request, method, request_header_lookup(request), clock::now());
  return context;
}

asio::awaitable<void> client_session::sleep_for(clock::duration duration) {
  asio::steady_timer timer(co_await asio::this_coro::executor, duration);
  error_code ignored;
  co_await timer.async_wait(use_ec(ignored));
}

asio::awaitable<std::optional<bool>>
client_session::apply_before_store(const faults::before_store_effect& effect,
                                   body_framing request_framing, bool head_request,
                                   exchange_record& record) {
  if (effect.delay > clock::duration::zero()) {
    co_await sleep_for(effect.delay);
  }
  if (effect.reset) {
    record.outcome = "fault: connection reset before the store";
    client_->reset();
    co_return false;
  }
  if (effect.hang) {
    // Never answer: wait, reading and dropping whatever comes, until the client gives up.
    record.outcome = "fault: no answer (hang)";
    char sink[4096];
    for (error_code ec; !ec;) {
      client_->expires_after(hang_limit);
      co_await client_->read_some(asio::buffer(sink), ec);
    }
    co_return false;
  }
  if (effect.respond) {
    const bool has_body = request_framing.has_body();
    const std::string out = serialize_local_response(*effect.respond, head_request, has_body);
    error_code ec;
    client_->expires_after(owner_.config.io_timeout);
    co_await client_->write_all(asio::buffer(out), ec);
    record.status = effect.respond->status;
    record.response_bytes = head_request ? 0 : effect.respond->body.size();
    record.outcome = "fault: answered by the proxy";
    if (has_body && !ec) {
      co_await discard_unread_body(request_framing);
    }
    co_return !has_body && !ec;
  }
  co_return std::nullopt;
}

asio::awaitable<bool> client_session::relay_to_store(request_parser& request,
                                                     body_framing request_framing,
                                                     fault_context& faults,
                                                     exchange_record& record) {
  const auto& config = owner_.config;
  const auto started = clock::now();
  const auto executor = co_await asio::this_coro::executor;
  const bool head_request = request.get().method() == http::verb::head;
  const std::string_view resource = path_of(record.target);
  const bool has_body = request_framing.has_body();
  if (faults.decision) {
    if (auto ended = co_await apply_before_store(faults.decision->before, request_framing,
                                                 head_request, record)) {
      co_return *ended;
    }
  }
  const std::string request_head = serialize_request_head(request);
  const bool wait_for_continue = has_body && expects_continue(request);
  auto* request_filters = faults.decision && !faults.decision->request_filters.empty()
                              ? &faults.decision->request_filters
                              : nullptr;

  std::unique_ptr<upstream_connection> upstream;
  std::unique_ptr<request_pump> pump;
  std::optional<response_parser> response;
  head_read response_head;
  bool too_many_interim = false;

  // Waits for the body pump to end; true when the client's request body was read to its end,
  // so the client connection is still in step and may carry another request.
  auto settle_pump = [&]() -> asio::awaitable<bool> {
    if (!pump) {
      co_return true;
    }
    if (!pump->started_reading) {
      pump->abort = true;
      pump->go.set();
    }
    if (!co_await pump->finished.wait_for(linger_timeout)) {
      client_->close();
      co_await pump->finished.wait();
    }
    record.request_bytes = pump->outcome.bytes;
    co_return pump->started_reading && pump->outcome.reached_end;
  };
  // Ends an exchange that cannot continue: both connections closed, the pump awaited.
  auto abandon = [&](bool reset_client) -> asio::awaitable<bool> {
    if (upstream) {
      upstream->stream->close();
    }
    if (reset_client) {
      client_->reset();
    } else {
      client_->close();
    }
    co_await settle_pump();
    co_return false;
  };
  auto store_error = [&](std::string_view what, const error_code& ec) {
    return fmt::format("s3fault: the store at {} {}: {}", config.upstream.authority(), what,
                       ec.message());
  };

  for (int attempt = 0;; ++attempt) {
    upstream = attempt == 0 ? owner_.pool.take_idle() : nullptr;
    record.upstream_used = true;
    record.upstream_reused = upstream != nullptr;
    error_code ec;
    if (!upstream) {
      upstream = co_await owner_.pool.connect(ec);
      if (!upstream) {
        const bool timeout = is_timeout(ec);
        record.outcome = "upstream connect failed: " + ec.message();
        co_await send_local_error(timeout ? 504 : 502, timeout ? "GatewayTimeout" : "BadGateway",
                                  store_error("cannot be reached", ec), resource, head_request,
                                  has_body, record);
        if (has_body) {
          co_await discard_unread_body(request_framing);
        }
        co_return !has_body;
      }
    }
    upstream->stream->expires_after(config.io_timeout);
    co_await upstream->stream->write_all(asio::buffer(request_head), ec);
    if (ec) {
      upstream->stream->close();
      if (record.upstream_reused) {
        continue; // a pooled connection the store had already closed: use a fresh one
      }
      record.outcome = "upstream write failed: " + ec.message();
      co_await send_local_error(502, "BadGateway", store_error("closed the connection", ec),
                                resource, head_request, has_body, record);
      if (has_body) {
        co_await discard_unread_body(request_framing);
      }
      co_return !has_body;
    }
    if (has_body) {
      pump = std::make_unique<request_pump>(executor);
      asio::co_spawn(
          executor,
          pump_request_body(*pump, *upstream, request_framing, wait_for_continue, request_filters),
          asio::detached);
    }
    // Read the response head; interim 1xx responses are passed on as they come.
    int interim_responses = 0;
    for (;;) {
      response.emplace();
      configure_head_parser(*response, config.max_header_bytes);
      response->skip(head_request);
      response_head = co_await read_head(*upstream->stream, upstream->buffer, *response,
                                         {config.upstream_timeout, config.header_timeout});
      const unsigned status = response_head.ec ? 0 : response->get().result_int();
      if (status / 100 != 1 || status == 101) {
        break;
      }
      if (++interim_responses > max_interim_responses) {
        too_many_interim = true;
        break;
      }
      if (status == 100 && pump) {
        pump->go.set();
      }
      const std::string interim = serialize_response_head(*response, false);
      client_->expires_after(config.io_timeout);
      co_await client_->write_all(asio::buffer(interim), ec);
      if (ec) {
        record.outcome = "client went away: " + ec.message();
        co_return co_await abandon(false);
      }
    }
    // A pooled connection the store had closed fails at once (EOF, reset) without a response
    // byte: most likely the store closed it before the request came, so it is sent again. A
    // timeout says nothing of the kind: the store has the request and may be acting on it.
    const bool retry_is_safe = !response_head.got_bytes && !is_timeout(response_head.ec) &&
                               record.upstream_reused && (!pump || !pump->started_reading);
    if (response_head.ec && retry_is_safe) {
      upstream->stream->close();
      co_await settle_pump();
      pump.reset();
      continue;
    }
    break;
  }
  record.ttfb_ms = ms_between(started, clock::now());

  if (too_many_interim) {
    upstream->stream->close();
    record.outcome = "the store sent too many interim responses";
    co_await send_local_error(502, "BadGateway",
                              fmt::format("s3fault: the store at {} sent more than {} interim "
                                          "(1xx) responses",
                                          config.upstream.authority(), max_interim_responses),
                              resource, head_request, true, record);
    co_await settle_pump();
    co_return false;
  }

  if (response_head.ec || response->get().result_int() == 101) {
    const bool client_gone = pump && pump->finished.is_set() && pump->outcome.read_error;
    if (client_gone) {
      record.outcome = "client went away during the upload: " + pump->outcome.read_error.message();
      co_return co_await abandon(false);
    }
    upstream->stream->close();
    const bool timeout = is_timeout(response_head.ec);
    const error_code cause =
        response_head.ec ? response_head.ec : make_error_code(http::error::bad_version);
    record.outcome = "no response from the store: " + cause.message();
    co_await send_local_error(
        timeout ? 504 : 502, timeout ? "GatewayTimeout" : "BadGateway",
        store_error(timeout ? "did not answer in time" : "failed before answering", cause),
        resource, head_request, true, record);
    // The pump drains what the client still sends (its writes now fail), so the client can read
    // the error instead of meeting a reset; settle_pump bounds that wait.
    co_await settle_pump();
    co_return false;
  }

  // The final response: head, then body.
  if (pump && !pump->started_reading) {
    // The store answered without asking for the body (e.g. an error after Expect).
    pump->abort = true;
    pump->go.set();
  }
  // Framing as the store sent it: the relay follows the store's body even when a fault changes
  // what the client is told.
  const body_framing framing = response_body_framing(*response, head_request);
  std::vector<std::unique_ptr<faults::body_filter>>* response_filters = nullptr;
  if (faults.decision) {
    auto& decision = *faults.decision;
    faults.rules->decide_on_status(decision, faults.request, response->get().result_int(),
                                   clock::now());
    response_head_fields head_fields(response->get());
    for (const auto& action : decision.head_actions) {
      action->apply_to_head(head_fields);
    }
    if (decision.first_byte_delay > clock::duration::zero()) {
      co_await sleep_for(decision.first_byte_delay);
    }
    if (decision.before.respond_after_store) {
      // The store did the work; the client is told it failed. The store's body is read to its
      // end and dropped, so both connections stay in step.
      relay_outcome dropped;
      dropped.reached_end = true;
      if (framing.has_body()) {
        auto scratch = owner_.buffers.take();
        dropped = co_await relay_body(*upstream->stream, upstream->buffer, nullptr, framing,
                                      scratch.span(), {config.io_timeout});
      }
      const bool in_step = co_await settle_pump();
      const auto& answer = *decision.before.respond_after_store;
      const bool close = !request.keep_alive() || owner_.draining || !in_step;
      const std::string out = serialize_local_response(answer, head_request, close);
      error_code ec;
      client_->expires_after(config.io_timeout);
      co_await client_->write_all(asio::buffer(out), ec);
      record.outcome = fmt::format("fault: the store answered {}, the client was told {}",
                                   response->get().result_int(), answer.status);
      record.status = answer.status;
      record.response_bytes = head_request ? 0 : answer.body.size();
      if (dropped.complete() && response->keep_alive() &&
          framing.how != body_framing::kind::until_close && (!pump || pump->outcome.complete())) {
        owner_.pool.put_back(std::move(upstream));
      } else {
        upstream->stream->close();
      }
      co_return !ec && !close;
    }
    if (!decision.response_filters.empty() && framing.has_body()) {
      response_filters = &decision.response_filters;
      std::optional<std::uint64_t> declared;
      if (framing.how == body_framing::kind::length) {
        declared = framing.length;
      }
      for (auto& filter : decision.response_filters) {
        if (auto announced = filter->announce_length(declared)) {
          declared = announced;
          announce_body_length(response->get(), *announced);
        }
      }
    }
  }
  const bool close_client = !request.keep_alive() || owner_.draining ||
                            framing.how == body_framing::kind::until_close ||
                            (pump && !pump->finished.is_set());
  record.status = response->get().result_int();
  std::string head = serialize_response_head(*response, close_client);
  // A small body that arrived with the head leaves with it: one write instead of two.
  const bool body_with_head = response_filters == nullptr &&
                              framing.how == body_framing::kind::length && framing.length > 0 &&
                              framing.length <= inline_body_limit &&
                              upstream->buffer.size() >= framing.length;
  if (body_with_head) {
    const auto buffered = upstream->buffer.data();
    head.append(static_cast<const char*>(buffered.data()),
                static_cast<std::size_t>(framing.length));
    upstream->buffer.consume(static_cast<std::size_t>(framing.length));
  }
  error_code ec;
  client_->expires_after(config.io_timeout);
  co_await client_->write_all(asio::buffer(head), ec);
  if (ec) {
    record.outcome = "client went away: " + ec.message();
    co_return co_await abandon(false);
  }
  if (body_with_head) {
    record.response_bytes = framing.length;
  } else if (framing.has_body()) {
    auto scratch = owner_.buffers.take();
    const relay_outcome body = co_await relay_body(
        *upstream->stream, upstream->buffer, client_.get(), framing, scratch.span(),
        {.io_timeout = config.io_timeout, .filters = response_filters, .pipes = &owner_.pipes});
    record.response_bytes = body.bytes;
    if (body.ended_by_filter != faults::body_step::ending::none) {
      // A fault cut the body: close (the declared length was kept, the client must notice) or
      // reset, as the rule said.
      const bool reset = body.ended_by_filter == faults::body_step::ending::reset;
      record.outcome = reset ? "fault: connection reset mid-body" : "fault: body cut short";
      co_return co_await abandon(reset);
    }
    if (!body.complete()) {
      // Cut the client off so a short body can never look complete to it; an RST makes that
      // unmistakable even for a body delimited by the connection's end.
      record.outcome = body.write_error ? "client went away mid-body: " + body.write_error.message()
                       : !body.framing_error.empty()
                           ? "store sent malformed chunked framing: " + body.framing_error
                           : "store failed mid-body: " + body.read_error.message();
      co_return co_await abandon(!body.write_error);
    }
  }
  const bool client_in_step = co_await settle_pump();
  const bool upstream_reusable = response->keep_alive() &&
                                 framing.how != body_framing::kind::until_close &&
                                 (!pump || pump->outcome.complete());
  if (upstream_reusable) {
    owner_.pool.put_back(std::move(upstream));
  } else {
    upstream->stream->close();
  }
  co_return client_in_step && !close_client;
}

asio::awaitable<void>
client_session::pump_request_body(request_pump& pump, upstream_connection& upstream,
                                  body_framing framing, bool wait_for_continue,
                                  std::vector<std::unique_ptr<faults::body_filter>>* filters) {
  if (wait_for_continue) {
    co_await pump.go.wait_for(continue_wait);
  }
  if (!pump.abort) {
    pump.started_reading = true;
    auto scratch = owner_.buffers.take();
    pump.outcome = co_await relay_body(*client_, client_buffer_, upstream.stream.get(), framing,
                                       scratch.span(),
                                       {.io_timeout = owner_.config.io_timeout,
                                        .drain_after_write_error = true,
                                        .filters = filters,
                                        .pipes = &owner_.pipes});
    if (pump.outcome.ended_by_filter == faults::body_step::ending::reset) {
      // A request-body fault: the upload dies here, on both sides.
      upstream.stream->reset();
      client_->reset();
    } else if (!pump.outcome.reached_end) {
      // The client stopped mid-body; the store would wait for the rest until its own timeout.
      upstream.stream->close();
    }
  }
  pump.finished.set();
}

asio::awaitable<void> client_session::discard_unread_body(body_framing framing) {
  if (!client_->is_tls()) {
    co_await client_->shutdown_send(); // the error is complete: FIN now, read on
  }
  auto scratch = owner_.buffers.take();
  co_await relay_body(*client_, client_buffer_, nullptr, framing, scratch.span(),
                      {.io_timeout = linger_timeout, .deadline = clock::now() + linger_timeout});
}

asio::awaitable<void> client_session::send_local_error(unsigned status, std::string_view code,
                                                       std::string_view message,
                                                       std::string_view resource, bool head_request,
                                                       bool close, exchange_record& record) {
  const std::string request_id = make_request_id();
  const std::string body =
      head_request ? std::string() : render_s3_error_xml(code, message, resource, request_id);
  std::string out =
      fmt::format("HTTP/1.1 {} {}\r\nContent-Type: application/xml\r\nContent-Length: {}\r\n"
                  "x-amz-request-id: {}\r\n{}\r\n",
                  status, std::string(http::obsolete_reason(http::int_to_status(status))),
                  body.size(), request_id, close ? "Connection: close\r\n" : "");
  out += body;
  error_code ec;
  client_->expires_after(owner_.config.io_timeout);
  co_await client_->write_all(asio::buffer(out), ec);
  record.status = status;
  record.response_bytes = body.size();
  if (record.outcome == "ok") {
    record.outcome = std::string(message);
  }
}

void client_session::log_exchange(const exchange_record& record) {
  if (owner_.logger->should_log(spdlog::level::info)) {
    owner_.logger->info(format_exchange(record, owner_.config.format));
  }
  if (owner_.config.metrics) {
    record_metrics(*owner_.config.metrics, record, owner_.config.s3_domains);
  }
  if (owner_.config.on_exchange) {
    owner_.config.on_exchange(record);
  }
}

} // namespace s3fault::proxy
