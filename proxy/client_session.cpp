#include "proxy/client_session.hpp"

#include "faults/response_document.hpp"
#include "faults/s3_error_body.hpp"
#include "proxy/body_relay.hpp"
#include "proxy/client_body_failure.hpp"
#include "proxy/exchange_metrics.hpp"
#include "proxy/fault_application.hpp"
#include "proxy/header_fault.hpp"
#include "proxy/plain_response_head.hpp"
#include "proxy/request_edits.hpp"
#include "runtime/log_redaction.hpp"

#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/status.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <cstring>

namespace s3fault::proxy {
namespace {

// When the store answers before the request body has all arrived, the client gets this long to
// finish sending it before the connection is closed under it.
constexpr auto linger_timeout = std::chrono::seconds(5);
// Response bodies up to this size that arrived with their head are sent in the head's write.
constexpr std::uint64_t inline_body_limit = 64 * 1024;
// The body of a GET the store was sent for a client's HEAD (head-as-get) is read and dropped up
// to this size, so the store connection can be pooled; a longer one costs less as a new
// connection than as a read.
constexpr std::uint64_t dropped_get_body_limit = 1024 * 1024;
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

/// Puts `body` in place of the first `wire_bytes` of `buffer` (a store body read whole), keeping
/// whatever follows it.
void replace_buffered_body(boost::beast::flat_buffer& buffer, std::size_t wire_bytes,
                           std::string_view body) {
  const auto buffered = buffer.data();
  const std::string rest(static_cast<const char*>(buffered.data()) + wire_bytes,
                         buffered.size() - wire_bytes);
  buffer.consume(buffer.size());
  const std::size_t size = body.size() + rest.size();
  if (size == 0) {
    return;
  }
  auto space = static_cast<char*>(buffer.prepare(size).data());
  std::memcpy(space, body.data(), body.size());
  std::memcpy(space + body.size(), rest.data(), rest.size());
  buffer.commit(size);
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
  std::optional<exchange_gauge::hold> counted;
  if (config.exchanges) {
    counted.emplace(*config.exchanges); // released after log_exchange, however this ends
  }
  head_arrived_ = clock::now();
  exchange_record record;
  record.started_at = std::chrono::system_clock::now();
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
    record.duration_ms = ms_between(head_arrived_, clock::now());
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
  if (config.keeps_heads()) {
    record.request_headers = redacted_fields(request); // as received, before any fault
  }
  for (const auto name : faults::distinguishing_headers()) {
    if (request.get().find(boost::beast::string_view(name.data(), name.size())) !=
        request.get().end()) {
      record.operation_headers.emplace_back(name);
    }
  }
  std::string why;
  const auto framing = request_body_framing(request, why);
  const auto own_fault = take_header_fault(request, owner_.config.allow_header_faults,
                                           owner_.config.faults ? owner_.config.faults->seed() : 0);
  const bool fault_refused = own_fault && !own_fault->refusal.empty();
  if (fault_refused) {
    why = own_fault->refusal;
  } else if (!framing) {
    why = "s3fault: rejected request: " + why;
  }
  bool keep_open = false;
  std::optional<faults::s3_request> classified; // by the rules, when there were any
  if (!framing || fault_refused) {
    co_await send_local_error(400, "InvalidRequest", why, path_of(record.target),
                              request.get().method() == http::verb::head, true, record);
  } else {
    // The decision lives until the exchange has ended, whichever way: the in-flight slots it
    // holds for load-shaped rules (faults/load_schedule.hpp) are released when it goes.
    fault_context faults = decide_faults(request, record, own_fault ? own_fault->rules : nullptr);
    keep_open = co_await relay_to_store(request, *framing, faults, record) && request.keep_alive();
    if (faults.decision) {
      faults.rules->settle_injections(*faults.decision, faults.request);
      record.faults = describe_injections(faults.decision->injected);
      classified = std::move(faults.request);
    }
  }
  record.duration_ms = ms_between(head_arrived_, clock::now());
  log_exchange(record, classified ? &*classified : nullptr);
  co_return keep_open && !owner_.draining;
}

client_session::fault_context
client_session::decide_faults(const request_parser& request, const exchange_record& record,
                              std::shared_ptr<const faults::rule_set> own_rules) const {
  fault_context context;
  if (own_rules) {
    context.rules = std::move(own_rules); // the request's own fault, and no configured rule
  } else if (!owner_.config.faults) {
    return context;
  } else {
    context.rules = owner_.rules.snapshot(*owner_.config.faults);
  }
  if (context.rules->rules().empty()) {
    return context; // no rules: not even the classification is paid for
  }
  context.request = faults::classify_request(request_line_of(record), owner_.config.s3_domains);
  context.decision = context.rules->decide(context.request, record.method,
                                           request_header_lookup(request), clock::now());
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
  using faults::no_answer;
  if (effect.end_without_answer && effect.end_without_answer->how == no_answer::ending::reset) {
    record.outcome = "fault: connection reset before the store";
    client_->reset();
    co_return false;
  }
  if (effect.end_without_answer) {
    // Silence: wait, reading and dropping whatever comes, until the client gives up.
    record.outcome = "fault: no answer (hang)";
    char sink[4096];
    for (error_code ec; !ec;) {
      client_->expires_after(effect.end_without_answer->silence_limit);
      co_await client_->read_some(asio::buffer(sink), ec);
    }
    co_return false;
  }
  if (effect.respond) {
    const bool has_body = request_framing.has_body();
    const bool sent = co_await send_local_response(*effect.respond, head_request, has_body, record);
    if (sent) {
      record.outcome = "fault: answered by the proxy";
    }
    if (has_body && sent) {
      co_await discard_unread_body(request_framing);
    }
    co_return !has_body && sent;
  }
  co_return std::nullopt;
}

/// Everything one exchange with the store holds while its phases run.
struct client_session::exchange {
  request_parser& request;
  body_framing request_framing;
  fault_context& faults;
  exchange_record& record;
  bool head_request = false; // the client asked with HEAD: its answer carries no body
  /// The store was asked with HEAD: its answer has no body. Not the same as head_request when
  /// a request edit changed the method (head-as-get sends the client's HEAD as a GET).
  bool store_got_head = false;
  std::string_view resource;        // the target's path, for error bodies
  clock::time_point request_sent{}; // the request head was written to the store
  std::unique_ptr<upstream_connection> upstream{};
  /// The request body's relay, when there is one; end_exchange always awaits its end.
  std::unique_ptr<request_upload> upload{};
  // The store's final head: plain when no rule looks at the response and the head is one
  // (plain_response_head.hpp), else parsed by Beast.
  std::optional<plain_response_head> plain{};
  std::optional<response_parser> response{};
  /// The store's body, as the store sent it (or as document actions left it in the upstream
  /// buffer: then with its new length).
  body_framing response_framing{};
  bool store_body_until_close = false; // the store's body ends with its connection
  std::vector<std::unique_ptr<faults::body_filter>>* response_filters = nullptr;
  bool close_client = false; // the answer tells the client the connection closes after it

  unsigned store_status() const { return plain ? plain->status : response->get().result_int(); }
  bool store_keep_alive() const { return plain ? plain->keep_alive : response->keep_alive(); }
  /// No rule can change the response: its head may be read as a plain one.
  bool response_untouched() const { return !faults.decision || faults.decision->empty(); }
};

/// How an exchange left its two connections.
struct client_session::exchange_end {
  enum class client_side {
    answered,             // the client got a whole answer; exchange::close_client says the rest
    close,                // cut now with a FIN: a short body the client must notice
    reset,                // cut now with an RST
    reset_when_delivered, // an RST once every byte written has arrived (reset-after N)
  };
  client_side client = client_side::answered;
  bool store_in_step = false; // the store's response was read to its end: it may be pooled

  static exchange_end answered(bool store_in_step) {
    return {client_side::answered, store_in_step};
  }
  static exchange_end cut(client_side how) { return {how, false}; }
};

/// What reading the store's final response head gave.
struct client_session::final_head_read {
  head_read head;
  bool too_many_interim = false;
  error_code client_write_error; // passing an interim response on failed
};

asio::awaitable<bool> client_session::relay_to_store(request_parser& request,
                                                     body_framing request_framing,
                                                     fault_context& faults,
                                                     exchange_record& record) {
  const bool head_request = request.get().method() == http::verb::head;
  if (faults.decision) {
    if (auto ended = co_await apply_before_store(faults.decision->before, request_framing,
                                                 head_request, record)) {
      co_return *ended;
    }
  }
  exchange ex{.request = request,
              .request_framing = request_framing,
              .faults = faults,
              .record = record,
              .head_request = head_request,
              .store_got_head = head_request,
              .resource = path_of(record.target)};
  auto end = co_await send_request(ex);
  if (!end) {
    end = co_await apply_response_faults(ex);
  }
  if (!end) {
    end = co_await relay_response(ex);
  }
  co_return co_await end_exchange(ex, *end);
}

asio::awaitable<std::optional<client_session::exchange_end>>
client_session::send_request(exchange& ex) {
  const auto& config = owner_.config;
  const bool has_body = ex.request_framing.has_body();
  const std::string request_head = head_for_store(ex);
  for (int attempt = 0;; ++attempt) {
    ex.upstream = attempt == 0 ? owner_.pool.take_idle() : nullptr;
    ex.record.upstream_used = true;
    ex.record.upstream_reused = ex.upstream != nullptr;
    error_code ec;
    if (!ex.upstream) {
      ex.upstream = co_await owner_.pool.connect(ec);
      if (!ex.upstream) {
        ex.record.outcome = "upstream connect failed: " + ec.message();
        co_return co_await refuse_unsent(ex, is_timeout(ec), "cannot be reached", ec);
      }
    }
    ex.upstream->stream->expires_after(config.io_timeout);
    co_await ex.upstream->stream->write_all(asio::buffer(request_head), ec);
    if (ec) {
      ex.upstream->stream->close();
      if (ex.record.upstream_reused) {
        continue; // a pooled connection the store had already closed: use a fresh one
      }
      ex.record.outcome = "upstream write failed: " + ec.message();
      co_return co_await refuse_unsent(ex, false, "closed the connection", ec);
    }
    ex.request_sent = clock::now();
    if (has_body) {
      start_upload(ex, co_await asio::this_coro::executor);
    }
    const final_head_read read = co_await read_final_head(ex);
    if (ex.upload) {
      ex.upload->response_head_arrived();
    }
    // A pooled connection the store had closed fails at once (EOF, reset) without a response
    // byte: most likely the store closed it before the request came, so it is sent again. A
    // timeout says nothing of the kind: the store has the request and may be acting on it.
    const bool retry_is_safe = read.head.ec && !read.head.got_bytes && !is_timeout(read.head.ec) &&
                               ex.record.upstream_reused &&
                               (!ex.upload || !ex.upload->started_reading());
    if (!retry_is_safe) {
      co_return co_await check_store_answer(ex, read);
    }
    ex.upstream->stream->close();
    if (ex.upload) {
      co_await ex.upload->finish(linger_timeout);
      ex.upload.reset();
    }
  }
}

std::string client_session::head_for_store(exchange& ex) {
  if (!ex.faults.decision || ex.faults.decision->request_actions.empty()) {
    return serialize_request_head(ex.request);
  }
  auto edited = edit_request(ex.request, *ex.faults.decision, owner_.config.resigner);
  if (!edited.problem.empty()) {
    owner_.logger->warn("{} {} {}: request edit not applied: {}", peer_, ex.record.method,
                        runtime::redact_target(ex.record.target), edited.problem);
  }
  if (!edited.head) {
    return serialize_request_head(ex.request);
  }
  ex.store_got_head = edited.method == "HEAD";
  return std::move(*edited.head);
}

void client_session::start_upload(exchange& ex, const asio::any_io_executor& executor) {
  auto* filters = ex.faults.decision && !ex.faults.decision->request_filters.empty()
                      ? &ex.faults.decision->request_filters
                      : nullptr;
  ex.upload = std::make_unique<request_upload>(
      owner_, executor,
      request_upload::settings{.client = *client_,
                               .client_buffer = client_buffer_,
                               .store = *ex.upstream,
                               .framing = ex.request_framing,
                               .wait_for_continue = expects_continue(ex.request),
                               .filters = filters});
  ex.upload->start();
}

asio::awaitable<std::optional<client_session::exchange_end>>
client_session::refuse_unsent(exchange& ex, bool timeout, std::string_view what,
                              const error_code& ec) {
  // The store never saw this request: the client gets an error, and a body it is still
  // sending is read and dropped so it can read that error.
  const bool has_body = ex.request_framing.has_body();
  co_await send_local_error(timeout ? 504 : 502, timeout ? "GatewayTimeout" : "BadGateway",
                            store_error(what, ec), ex.resource, ex.head_request, has_body,
                            ex.record);
  if (has_body) {
    co_await discard_unread_body(ex.request_framing);
  }
  ex.close_client = has_body;
  co_return exchange_end::answered(false);
}

std::string client_session::store_error(std::string_view what, const error_code& ec) const {
  return fmt::format("s3fault: the store at {} {}: {}", owner_.config.upstream.host_and_port(),
                     what, ec.message());
}

asio::awaitable<client_session::final_head_read> client_session::read_final_head(exchange& ex) {
  const auto& config = owner_.config;
  final_head_read read;
  // While a body goes up, the upload bounds the wait: from its last byte, not from the head.
  const head_deadlines deadlines{ex.upload ? no_first_byte_deadline : config.upstream_timeout,
                                 config.header_timeout};
  ex.plain.reset();
  if (ex.response_untouched()) {
    read.head = co_await read_head_start(*ex.upstream->stream, ex.upstream->buffer, deadlines);
    if (read.head.ec) {
      co_return read;
    }
    if (take_plain_head(ex)) {
      note_store_head(ex.record, ex.request_sent);
      co_return read;
    }
  }
  for (int interim = 0;; ++interim) {
    ex.response.emplace();
    configure_head_parser(*ex.response, config.max_header_bytes);
    ex.response->skip(ex.store_got_head);
    read.head =
        co_await read_head(*ex.upstream->stream, ex.upstream->buffer, *ex.response, deadlines);
    if (!read.head.ec) {
      note_store_head(ex.record, ex.request_sent);
    }
    const unsigned status = read.head.ec ? 0 : ex.response->get().result_int();
    if (status / 100 != 1 || status == 101) {
      co_return read;
    }
    if (interim == max_interim_responses) {
      read.too_many_interim = true;
      co_return read;
    }
    if (status == 100 && ex.upload) {
      ex.upload->release_body();
    }
    // Interim responses are passed on as they come.
    const std::string head = serialize_response_head(*ex.response, false);
    co_await write_answer(head, read.client_write_error, ex.record);
    if (read.client_write_error) {
      co_return read;
    }
  }
}

bool client_session::take_plain_head(exchange& ex) const {
  auto& buffer = ex.upstream->buffer;
  const auto bytes = buffer.data();
  plain_response_head head;
  if (!read_plain_response_head({static_cast<const char*>(bytes.data()), bytes.size()},
                                ex.store_got_head, owner_.config.max_header_bytes, head)) {
    return false;
  }
  buffer.consume(head.size);
  ex.plain = std::move(head);
  return true;
}

asio::awaitable<std::optional<client_session::exchange_end>>
client_session::check_store_answer(exchange& ex, const final_head_read& read) {
  if (read.client_write_error) {
    ex.record.outcome = "client went away: " + read.client_write_error.message();
    co_return exchange_end::cut(exchange_end::client_side::close);
  }
  if (read.too_many_interim) {
    ex.upstream->stream->close();
    ex.record.outcome = "the store sent too many interim responses";
    co_await send_local_error(502, "BadGateway",
                              fmt::format("s3fault: the store at {} sent more than {} interim "
                                          "(1xx) responses",
                                          owner_.config.upstream.host_and_port(),
                                          max_interim_responses),
                              ex.resource, ex.head_request, true, ex.record);
    ex.close_client = true;
    co_return exchange_end::answered(false);
  }
  if (!read.head.ec && ex.store_status() != 101) {
    ex.record.store_status = ex.store_status(); // before a header fault may change it
    co_return std::nullopt;                     // a final head: on to the response's faults
  }
  if (ex.upload && ex.upload->reset_by_fault()) {
    // The upload's fault reset both connections: the client never got an HTTP answer.
    ex.record.outcome =
        fmt::format("fault: upload reset after {} bytes", ex.upload->outcome().bytes);
    if (const auto left = ex.upload->unacknowledged_at_reset()) {
      ex.record.outcome += fmt::format(" ({} still unacknowledged by the store when the wait "
                                       "for them ran out)",
                                       left);
    }
    co_return exchange_end::cut(exchange_end::client_side::reset);
  }
  if (ex.upload && ex.upload->body_relayed()) {
    if (const auto failure = client_body_failure_of(ex.upload->outcome())) {
      co_return co_await refuse_client_body(ex, *failure);
    }
  }
  ex.upstream->stream->close();
  // A store that stops reading the body is cut by the upload's write deadline, which closes or
  // cancels the connection under the head's read (nothing else does while the body still
  // moves): that too is a store out of time.
  const bool cancelled_mid_body =
      read.head.ec == asio::error::operation_aborted && ex.upload && !ex.upload->body_relayed();
  const bool stopped_reading = ex.upload && !is_timeout(read.head.ec) &&
                               (cancelled_mid_body || ex.upstream->stream->deadline_expired());
  const bool timeout =
      is_timeout(read.head.ec) || stopped_reading || (ex.upload && ex.upload->response_timed_out());
  const error_code cause = timeout        ? make_error_code(asio::error::timed_out)
                           : read.head.ec ? read.head.ec
                                          : make_error_code(http::error::bad_version);
  ex.record.outcome = "no response from the store: " + cause.message();
  const std::string_view what = stopped_reading ? "stopped reading the request body"
                                : timeout       ? "did not answer in time"
                                                : "failed before answering";
  co_await send_local_error(timeout ? 504 : 502, timeout ? "GatewayTimeout" : "BadGateway",
                            store_error(what, cause), ex.resource, ex.head_request, true,
                            ex.record);
  // The upload drains what the client still sends (its writes to the store now fail), so the
  // client can read the error instead of meeting a reset; end_exchange bounds that wait.
  ex.close_client = true;
  co_return exchange_end::answered(false);
}

asio::awaitable<client_session::exchange_end>
client_session::refuse_client_body(exchange& ex, const client_body_failure& failure) {
  ex.record.outcome = failure.what;
  if (!failure.answerable) {
    co_return exchange_end::cut(exchange_end::client_side::close);
  }
  // The upload closed the store connection, so the store does not wait for the rest. The
  // client is told its mistake; what it still sends is read and dropped for a while, so that
  // closing does not reset the connection before it has read the answer.
  co_await send_local_error(400, failure.code, "s3fault: " + failure.what, ex.resource,
                            ex.head_request, true, ex.record);
  co_await discard_unread_body({.how = body_framing::kind::until_close});
  ex.close_client = true;
  co_return exchange_end::answered(false);
}

asio::awaitable<std::optional<client_session::exchange_end>>
client_session::apply_response_faults(exchange& ex) {
  if (ex.upload) {
    ex.upload->skip_body_if_unsent(); // the store answered without asking for the body
  }
  if (ex.plain) {
    ex.response_framing = ex.plain->framing; // no fault: the head is forwarded as it came
    co_return std::nullopt;
  }
  auto& head = ex.response->get();
  // Framing as the store sent it: the relay follows the store's body even when a fault changes
  // what the client is told.
  ex.response_framing = response_body_framing(*ex.response, ex.store_got_head);
  ex.store_body_until_close = ex.response_framing.how == body_framing::kind::until_close;
  if (ex.faults.decision) {
    auto& decision = *ex.faults.decision;
    ex.faults.rules->decide_on_status(decision, ex.faults.request, head.result_int(), clock::now());
    response_head_fields head_fields(head);
    decision.apply_head_actions(head_fields);
    if (decision.first_byte_delay > clock::duration::zero()) {
      co_await sleep_for(decision.first_byte_delay);
    }
    if (decision.before.respond_after_store) {
      co_return co_await answer_instead_of_store(ex, *decision.before.respond_after_store);
    }
    if (decision.before.reset_after_store) {
      co_return co_await reset_instead_of_answer(ex);
    }
    if (decision.edits_document()) {
      co_await edit_response_document(ex);
    }
    if (!decision.response_filters.empty() && ex.response_framing.has_body() &&
        client_gets_body(ex)) {
      ex.response_filters = &decision.response_filters;
      announce_filtered_length(ex);
    }
  }
  match_framing_to_status(head, ex.head_request,
                          ex.response_framing.how != body_framing::kind::none);
  co_return std::nullopt;
}

asio::awaitable<void> client_session::edit_response_document(exchange& ex) {
  // The store's body whole, or not at all: one too long to hold, or one the store failed to
  // send, passes as it came (what was read of it waits in the upstream buffer for the relay),
  // and the rules that wanted to edit it changed nothing.
  whole_body body;
  body.end = whole_body::ending::complete;
  if (ex.response_framing.how != body_framing::kind::none) {
    body = co_await read_whole_body(*ex.upstream->stream, ex.upstream->buffer, ex.response_framing,
                                    faults::document_body_limit, owner_.config.io_timeout);
  }
  if (body.end != whole_body::ending::complete) {
    co_return;
  }
  auto& head = ex.response->get();
  response_head_fields head_fields(head);
  faults::response_document document(head_fields, std::move(body.payload), ex.head_request);
  ex.faults.decision->apply_document_actions(document, ex.faults.request);
  if (!document.body_changed()) {
    co_return; // the store's bytes, still in the buffer, go out as they came
  }
  const std::string edited = document.take_body();
  frame_edited_body(head, edited.size());
  if (!ex.head_request) {
    // The relay sends the new body from the buffer as a body of known length; the store's was
    // read to its end, so the store connection is in step.
    replace_buffered_body(ex.upstream->buffer, body.wire_bytes, edited);
    ex.response_framing = {body_framing::kind::length, edited.size()};
  }
}

void client_session::announce_filtered_length(exchange& ex) {
  std::optional<std::uint64_t> declared;
  if (ex.response_framing.how == body_framing::kind::length) {
    declared = ex.response_framing.length;
  }
  for (auto& filter : *ex.response_filters) {
    if (const auto announced = filter->announce_length(declared)) {
      declared = announced->length;
      announce_body_length(ex.response->get(), *announced);
    }
  }
}

bool client_session::client_gets_body(const exchange& ex) {
  return !ex.head_request && !status_forbids_body(ex.store_status());
}

bool client_session::store_can_be_reused(const exchange& ex) {
  return ex.store_keep_alive() && !ex.store_body_until_close;
}

asio::awaitable<client_session::exchange_end>
client_session::answer_instead_of_store(exchange& ex, const faults::local_response& answer) {
  // The store did the work; the client is told it failed.
  const auto dropped = co_await drop_store_answer(ex);
  ex.close_client = !ex.request.keep_alive() || owner_.draining || !dropped.client_in_step;
  const unsigned store_status = ex.store_status();
  const bool sent =
      co_await send_local_response(answer, ex.head_request, ex.close_client, ex.record);
  if (!sent) {
    co_return exchange_end::cut(exchange_end::client_side::close);
  }
  ex.record.outcome = fmt::format("fault: the store answered {}, the client was told {}",
                                  store_status, answer.status);
  co_return exchange_end::answered(dropped.store_body_whole && store_can_be_reused(ex));
}

asio::awaitable<client_session::dropped_answer> client_session::drop_store_answer(exchange& ex) {
  dropped_answer dropped;
  if (ex.response_framing.has_body()) {
    auto scratch = owner_.buffers.take();
    const auto relayed =
        co_await relay_body(*ex.upstream->stream, ex.upstream->buffer, nullptr, ex.response_framing,
                            scratch.span(), {owner_.config.io_timeout});
    dropped.store_body_whole = relayed.complete();
  }
  if (ex.upload) {
    dropped.client_in_step = co_await ex.upload->finish(linger_timeout);
  }
  co_return dropped;
}

asio::awaitable<client_session::exchange_end>
client_session::reset_instead_of_answer(exchange& ex) {
  // The store did the work and answered; the answer is lost, after the store has all the
  // client sent.
  co_await drop_store_answer(ex);
  ex.record.outcome =
      fmt::format("fault: the store answered {}, the client got a reset", ex.store_status());
  co_return exchange_end::cut(exchange_end::client_side::reset);
}

asio::awaitable<client_session::exchange_end> client_session::relay_response(exchange& ex) {
  const auto& framing = ex.response_framing;
  // A HEAD answered from the store's GET: the GET's body, however it ends, is not the client's.
  const bool get_for_head = ex.head_request && !ex.store_got_head;
  ex.close_client = !ex.request.keep_alive() || owner_.draining ||
                    (framing.how == body_framing::kind::until_close && !get_for_head) ||
                    (ex.upload && !ex.upload->body_relayed());
  const bool to_client = client_gets_body(ex);
  std::string head = ex.plain ? finish_response_head(*ex.plain, ex.close_client)
                              : serialize_response_head(*ex.response, ex.close_client);
  // A small body that arrived with the head leaves with it: one write instead of two.
  const bool body_with_head = to_client && ex.response_filters == nullptr &&
                              framing.how == body_framing::kind::length && framing.length > 0 &&
                              framing.length <= inline_body_limit &&
                              ex.upstream->buffer.size() >= framing.length;
  if (body_with_head) {
    const auto buffered = ex.upstream->buffer.data();
    head.append(static_cast<const char*>(buffered.data()),
                static_cast<std::size_t>(framing.length));
    ex.upstream->buffer.consume(static_cast<std::size_t>(framing.length));
  }
  error_code ec;
  co_await write_answer(head, ec, ex.record);
  if (ec) {
    ex.record.outcome = "client went away: " + ec.message();
    co_return exchange_end::cut(exchange_end::client_side::close);
  }
  ex.record.status = ex.store_status();
  note_answer(ex.record, head, body_with_head ? framing.length : 0);
  keep_response_head(ex.record, head);
  if (body_with_head) {
    ex.record.response_bytes = framing.length;
  } else if (get_for_head) {
    co_return exchange_end::answered(co_await drop_body_of_get(ex));
  } else if (framing.has_body()) {
    co_return co_await relay_response_body(ex, to_client);
  }
  co_return exchange_end::answered(store_can_be_reused(ex));
}

asio::awaitable<bool> client_session::drop_body_of_get(exchange& ex) {
  const auto& framing = ex.response_framing;
  if (!framing.has_body()) {
    co_return store_can_be_reused(ex);
  }
  if (framing.how == body_framing::kind::until_close) {
    co_return false; // it ends only with the connection: closing it ends the exchange
  }
  // Read whole (chunks and all) and dropped, so the store connection is in step; a body over
  // the limit is left unread and its connection closed.
  const whole_body body =
      co_await read_whole_body(*ex.upstream->stream, ex.upstream->buffer, framing,
                               dropped_get_body_limit, owner_.config.io_timeout);
  if (body.end != whole_body::ending::complete) {
    co_return false;
  }
  ex.upstream->buffer.consume(body.wire_bytes);
  co_return store_can_be_reused(ex);
}

asio::awaitable<client_session::exchange_end> client_session::relay_response_body(exchange& ex,
                                                                                  bool to_client) {
  auto scratch = owner_.buffers.take();
  // Without a body for the client (a fault made the status one that has none), the store's
  // body is read and dropped, so the store connection stays in step.
  const relay_outcome body =
      co_await relay_body(*ex.upstream->stream, ex.upstream->buffer,
                          to_client ? client_.get() : nullptr, ex.response_framing, scratch.span(),
                          {.io_timeout = owner_.config.io_timeout,
                           .filters = ex.response_filters,
                           .pipes = &owner_.pipes});
  ex.record.response_bytes = body.bytes;
  if (body.ended_by_filter != faults::body_step::ending::none) {
    // A fault cut the body: close (the declared length was kept, the client must notice) or
    // reset after exactly the bytes the rule let through.
    const bool reset = body.ended_by_filter == faults::body_step::ending::reset;
    ex.record.outcome = reset ? "fault: connection reset mid-body" : "fault: body cut short";
    co_return exchange_end::cut(reset ? exchange_end::client_side::reset_when_delivered
                                      : exchange_end::client_side::close);
  }
  if (body.complete()) {
    co_return exchange_end::answered(store_can_be_reused(ex));
  }
  ex.record.outcome = body.write_error ? "client went away mid-body: " + body.write_error.message()
                      : !body.framing_error.empty()
                          ? "store sent malformed chunked framing: " + body.framing_error
                          : "store failed mid-body: " + body.read_error.message();
  if (!to_client) {
    co_return exchange_end::answered(false); // the client already has its whole answer
  }
  // Cut the client off so a short body can never look complete to it; an RST makes that
  // unmistakable even for a body delimited by the connection's end.
  co_return exchange_end::cut(body.write_error ? exchange_end::client_side::close
                                               : exchange_end::client_side::reset);
}

asio::awaitable<bool> client_session::end_exchange(exchange& ex, exchange_end end) {
  using side = exchange_end::client_side;
  if (end.client != side::answered) {
    // Cut: the store connection first, so an upload still running fails fast, then the client.
    if (ex.upstream) {
      ex.upstream->stream->close();
    }
    if (end.client == side::reset_when_delivered) {
      co_await reset_client_when_delivered(ex.record);
    } else if (end.client == side::reset) {
      client_->reset();
    } else {
      client_->close();
    }
  }
  bool client_in_step = true;
  if (ex.upload) {
    client_in_step = co_await ex.upload->finish(linger_timeout);
    ex.record.request_bytes = ex.upload->outcome().bytes;
  }
  if (ex.upstream && ex.upstream->stream->is_open()) {
    const bool upload_complete = !ex.upload || ex.upload->outcome().complete();
    if (end.client == side::answered && end.store_in_step && upload_complete) {
      owner_.pool.put_back(std::move(ex.upstream));
    } else {
      ex.upstream->stream->close();
    }
  }
  co_return end.client == side::answered&& client_in_step && !ex.close_client;
}

asio::awaitable<void> client_session::reset_client_when_delivered(exchange_record& record) {
  const auto limit = owner_.config.io_timeout;
  if (const auto left = co_await client_->wait_until_delivered(limit)) {
    record.outcome += fmt::format(" ({} bytes still unacknowledged by the client after {} ms)",
                                  left, limit.count());
  }
  client_->reset();
}

asio::awaitable<void> client_session::discard_unread_body(body_framing framing) {
  if (!client_->is_tls()) {
    co_await client_->shutdown_send(); // the error is complete: FIN now, read on
  }
  auto scratch = owner_.buffers.take();
  co_await relay_body(*client_, client_buffer_, nullptr, framing, scratch.span(),
                      {.io_timeout = linger_timeout, .deadline = clock::now() + linger_timeout});
}

asio::awaitable<bool> client_session::send_local_response(const faults::local_response& response,
                                                          bool head_request, bool close,
                                                          exchange_record& record) {
  const std::string out =
      serialize_local_response(response, head_request, close, owner_.config.server_header);
  error_code ec;
  co_await write_answer(out, ec, record);
  if (ec) {
    const std::string gone = "the client went away before the answer: " + ec.message();
    record.outcome = record.outcome == "ok" ? gone : record.outcome + " (" + gone + ")";
    co_return false;
  }
  record.status = response.status;
  keep_response_head(record, out);
  record.response_bytes =
      head_request || status_forbids_body(response.status) ? 0 : response.body.size();
  record.request_id = std::string(field_in_head_text(out, "x-amz-request-id"));
  record.error_code = response.status >= 300 ? s3_error_code_of(response.body) : "";
  co_return true;
}

asio::awaitable<void> client_session::write_answer(std::string_view bytes, error_code& ec,
                                                   exchange_record& record) {
  // Taken as the write starts: a socket hands the bytes to the kernel within it, so the client
  // can never have the first one before this time.
  const auto first_byte = clock::now();
  client_->expires_after(owner_.config.io_timeout);
  co_await client_->write_all(asio::buffer(bytes.data(), bytes.size()), ec);
  if (!ec && record.ttfb_ms < 0) {
    record.ttfb_ms = ms_between(head_arrived_, first_byte);
  }
}

void client_session::note_store_head(exchange_record& record, clock::time_point request_sent) {
  if (record.store_ttfb_ms < 0) {
    record.store_ttfb_ms = ms_between(request_sent, clock::now());
  }
}

void client_session::note_answer(exchange_record& record, std::string_view answer,
                                 std::uint64_t body_bytes) {
  record.request_id = std::string(field_in_head_text(answer, "x-amz-request-id"));
  if (record.status >= 400 && body_bytes > 0) {
    record.error_code = s3_error_code_of(answer.substr(answer.size() - body_bytes));
  }
}

void client_session::keep_response_head(exchange_record& record, std::string_view answer) const {
  if (owner_.config.keeps_heads()) {
    record.response_headers = redacted_fields_in_head_text(answer);
  }
}

asio::awaitable<void> client_session::send_local_error(unsigned status, std::string_view code,
                                                       std::string_view message,
                                                       std::string_view resource, bool head_request,
                                                       bool close, exchange_record& record) {
  faults::local_response error;
  error.status = status;
  const std::string request_id = make_request_id();
  error.headers = {{"Content-Type", "application/xml"}, {"x-amz-request-id", request_id}};
  if (!head_request) {
    error.body = render_s3_error_xml(code, message, resource, request_id);
  }
  const std::string outcome_before = record.outcome;
  const bool sent = co_await send_local_response(error, head_request, close, record);
  if (sent) {
    record.error_code = std::string(code); // known even when a HEAD's answer has no body
  }
  if (sent && outcome_before == "ok") {
    record.outcome = std::string(message);
  }
}

void client_session::log_exchange(const exchange_record& record,
                                  const faults::s3_request* classified) {
  const auto& config = owner_.config;
  const bool logged = owner_.logger->should_log(spdlog::level::info);
  std::optional<faults::s3_request> classified_here;
  if (classified == nullptr && (logged || config.metrics || config.keeps_heads())) {
    classified = &classified_here.emplace(
        faults::classify_request(request_line_of(record), config.s3_domains));
  }
  // The log line last: whoever reads it finds the exchange already in /metrics, /stats and
  // the journal.
  if (config.metrics) {
    record_metrics(*config.metrics, record, *classified);
  }
  if (config.journal) {
    config.journal->write(record, *classified);
  }
  if (config.inspector) {
    config.inspector->add(record, *classified);
  }
  if (config.on_exchange) {
    config.on_exchange(record);
  }
  if (logged) {
    owner_.logger->info(format_exchange(record, *classified, config.format));
  }
}

} // namespace s3fault::proxy
