// The exchange from the store's final response head on: the response's faults, the relay of the
// answer to the client, and the end that leaves both connections as they should be.
#include "faults/response_document.hpp"
#include "proxy/body_relay.hpp"
#include "proxy/exchange.hpp"
#include "proxy/fault_application.hpp"

#include <fmt/format.h>

#include <cstring>

namespace s3fault::proxy {
namespace {

// Response bodies up to this size that arrived with their head are sent in the head's write.
constexpr std::uint64_t inline_body_limit = 64 * 1024;
// The body of a GET the store was sent for a client's HEAD (head-as-get) is read and dropped up
// to this size, so the store connection can be pooled; a longer one costs less as a new
// connection than as a read.
constexpr std::uint64_t dropped_get_body_limit = 1024 * 1024;

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

unsigned exchange::store_status() const {
  return plain_ ? plain_->status : response_->get().result_int();
}

bool exchange::store_keep_alive() const {
  return plain_ ? plain_->keep_alive : response_->keep_alive();
}

bool exchange::client_gets_body() const {
  return !head_request_ && !status_forbids_body(store_status());
}

bool exchange::store_can_be_reused() const {
  return store_keep_alive() && !store_body_until_close_;
}

asio::awaitable<std::optional<exchange::ending>> exchange::apply_response_faults() {
  if (upload_) {
    upload_->skip_body_if_unsent(); // the store answered without asking for the body
  }
  if (plain_) {
    response_framing_ = plain_->framing; // no fault: the head is forwarded as it came
    co_return std::nullopt;
  }
  // Framing as the store sent it: the relay follows the store's body even when a fault changes
  // what the client is told.
  response_framing_ = response_body_framing(*response_, store_got_head_);
  store_body_until_close_ = response_framing_.how == body_framing::kind::until_close;
  if (decision_) {
    if (auto how = co_await apply_decided_response_faults()) {
      co_return how;
    }
  }
  match_framing_to_status(response_->get(), head_request_,
                          response_framing_.how != body_framing::kind::none);
  co_return std::nullopt;
}

asio::awaitable<std::optional<exchange::ending>> exchange::apply_decided_response_faults() {
  auto& decision = *decision_;
  auto& head = response_->get();
  rules_->decide_on_status(decision, *classified_, head.result_int(), clock::now());
  response_head_fields head_fields(head);
  decision.apply_head_actions(head_fields);
  if (decision.first_byte_delay > clock::duration::zero()) {
    co_await sleep_for(decision.first_byte_delay);
  }
  if (decision.before.respond_after_store) {
    co_return co_await answer_instead_of_store(*decision.before.respond_after_store);
  }
  if (decision.before.reset_after_store) {
    co_return co_await reset_instead_of_answer();
  }
  if (decision.edits_document()) {
    co_await edit_response_document();
  }
  if (!decision.response_filters.empty() && response_framing_.has_body() && client_gets_body()) {
    response_filters_ = &decision.response_filters;
    announce_filtered_length();
  }
  co_return std::nullopt;
}

asio::awaitable<void> exchange::edit_response_document() {
  // The store's body whole, or not at all: one too long to hold, or one the store failed to
  // send, passes as it came (what was read of it waits in the upstream buffer for the relay),
  // and the rules that wanted to edit it changed nothing.
  whole_body body;
  body.end = whole_body::ending::complete;
  if (response_framing_.how != body_framing::kind::none) {
    body = co_await read_whole_body(*upstream_->stream, upstream_->buffer, response_framing_,
                                    faults::document_body_limit, owner_.config.io_timeout);
  }
  if (body.end != whole_body::ending::complete) {
    co_return;
  }
  auto& head = response_->get();
  response_head_fields head_fields(head);
  faults::response_document document(head_fields, std::move(body.payload), head_request_);
  decision_->apply_document_actions(document, *classified_);
  if (!document.body_changed()) {
    co_return; // the store's bytes, still in the buffer, go out as they came
  }
  const std::string edited = document.take_body();
  frame_edited_body(head, edited.size());
  if (!head_request_) {
    // The relay sends the new body from the buffer as a body of known length; the store's was
    // read to its end, so the store connection is in step.
    replace_buffered_body(upstream_->buffer, body.wire_bytes, edited);
    response_framing_ = {body_framing::kind::length, edited.size()};
  }
}

void exchange::announce_filtered_length() {
  std::optional<std::uint64_t> declared;
  if (response_framing_.how == body_framing::kind::length) {
    declared = response_framing_.length;
  }
  for (auto& filter : *response_filters_) {
    if (const auto announced = filter->announce_length(declared)) {
      declared = announced->length;
      announce_body_length(response_->get(), *announced);
    }
  }
}

asio::awaitable<exchange::ending>
exchange::answer_instead_of_store(const faults::local_response& answer) {
  // The store did the work; the client is told it failed.
  const auto dropped = co_await drop_store_answer();
  close_client_ = !request_->keep_alive() || owner_.draining || !dropped.client_in_step;
  const unsigned status_of_store = store_status();
  if (!co_await send_local_response(answer, close_client_)) {
    co_return ending::cut(ending::client_side::close);
  }
  record_.outcome = {outcome_kind::fault_answer_replaced, std::to_string(status_of_store)};
  co_return ending::answered(dropped.store_body_whole && store_can_be_reused());
}

asio::awaitable<exchange::dropped_answer> exchange::drop_store_answer() {
  dropped_answer dropped;
  if (response_framing_.has_body()) {
    auto scratch = owner_.buffers.take();
    const auto relayed =
        co_await relay_body(*upstream_->stream, upstream_->buffer, nullptr, response_framing_,
                            scratch.span(), {owner_.config.io_timeout});
    dropped.store_body_whole = relayed.complete();
  }
  if (upload_) {
    dropped.client_in_step = co_await upload_->finish(linger_timeout);
  }
  co_return dropped;
}

asio::awaitable<exchange::ending> exchange::reset_instead_of_answer() {
  // The store did the work and answered; the answer is lost, after the store has all the
  // client sent.
  co_await drop_store_answer();
  record_.outcome = {outcome_kind::fault_answer_reset, std::to_string(store_status())};
  co_return ending::cut(ending::client_side::reset);
}

std::uint64_t exchange::response_head(std::string& head) {
  head = plain_ ? finish_response_head(*plain_, close_client_)
                : serialize_response_head(*response_, close_client_);
  // A small body that arrived with the head leaves with it: one write instead of two.
  const auto& framing = response_framing_;
  const bool body_with_head = client_gets_body() && response_filters_ == nullptr &&
                              framing.how == body_framing::kind::length && framing.length > 0 &&
                              framing.length <= inline_body_limit &&
                              upstream_->buffer.size() >= framing.length;
  if (!body_with_head) {
    return 0;
  }
  const auto buffered = upstream_->buffer.data();
  head.append(static_cast<const char*>(buffered.data()), static_cast<std::size_t>(framing.length));
  upstream_->buffer.consume(static_cast<std::size_t>(framing.length));
  return framing.length;
}

asio::awaitable<exchange::ending> exchange::relay_response() {
  const auto& framing = response_framing_;
  // A HEAD answered from the store's GET: the GET's body, however it ends, is not the client's.
  const bool get_for_head = head_request_ && !store_got_head_;
  close_client_ = !request_->keep_alive() || owner_.draining ||
                  (framing.how == body_framing::kind::until_close && !get_for_head) ||
                  (upload_ && !upload_->body_relayed());
  std::string head;
  const std::uint64_t body_with_head = response_head(head);
  error_code ec;
  co_await write_answer(head, ec);
  if (ec) {
    record_.outcome = {outcome_kind::client_went_away, ec.message()};
    co_return ending::cut(ending::client_side::close);
  }
  record_.status = store_status();
  note_answer(head, body_with_head);
  keep_response_head(head);
  if (body_with_head > 0) {
    record_.response_bytes = body_with_head;
  } else if (get_for_head) {
    co_return ending::answered(co_await drop_body_of_get());
  } else if (framing.has_body()) {
    co_return co_await relay_response_body(client_gets_body());
  }
  co_return ending::answered(store_can_be_reused());
}

asio::awaitable<bool> exchange::drop_body_of_get() {
  const auto& framing = response_framing_;
  if (!framing.has_body()) {
    co_return store_can_be_reused();
  }
  if (framing.how == body_framing::kind::until_close) {
    co_return false; // it ends only with the connection: closing it ends the exchange
  }
  // Read whole (chunks and all) and dropped, so the store connection is in step; a body over
  // the limit is left unread and its connection closed.
  const whole_body body =
      co_await read_whole_body(*upstream_->stream, upstream_->buffer, framing,
                               dropped_get_body_limit, owner_.config.io_timeout);
  if (body.end != whole_body::ending::complete) {
    co_return false;
  }
  upstream_->buffer.consume(body.wire_bytes);
  co_return store_can_be_reused();
}

asio::awaitable<exchange::ending> exchange::relay_response_body(bool to_client) {
  auto scratch = owner_.buffers.take();
  // Without a body for the client (a fault made the status one that has none), the store's
  // body is read and dropped, so the store connection stays in step.
  const relay_outcome body =
      co_await relay_body(*upstream_->stream, upstream_->buffer,
                          to_client ? &client_.stream : nullptr, response_framing_, scratch.span(),
                          {.io_timeout = owner_.config.io_timeout,
                           .filters = response_filters_,
                           .pipes = &owner_.pipes});
  record_.response_bytes = body.bytes;
  if (body.ended_by_filter != faults::body_step::ending::none) {
    // A fault cut the body: close (the declared length was kept, the client must notice) or
    // reset after exactly the bytes the rule let through.
    const bool reset = body.ended_by_filter == faults::body_step::ending::reset;
    record_.outcome = {reset ? outcome_kind::fault_reset_mid_body : outcome_kind::fault_body_cut};
    co_return ending::cut(reset ? ending::client_side::reset_when_delivered
                                : ending::client_side::close);
  }
  if (body.complete()) {
    co_return ending::answered(store_can_be_reused());
  }
  record_.outcome =
      body.write_error
          ? exchange_outcome{outcome_kind::client_went_away_mid_body, body.write_error.message()}
      : !body.framing_error.empty()
          ? exchange_outcome{outcome_kind::store_malformed_chunked, body.framing_error}
          : exchange_outcome{outcome_kind::store_failed_mid_body, body.read_error.message()};
  if (!to_client) {
    co_return ending::answered(false); // the client already has its whole answer
  }
  // Cut the client off so a short body can never look complete to it; an RST makes that
  // unmistakable even for a body delimited by the connection's end.
  co_return ending::cut(body.write_error ? ending::client_side::close : ending::client_side::reset);
}

asio::awaitable<void> exchange::cut_client(ending::client_side how) {
  // The store connection first, so an upload still running fails fast, then the client.
  if (upstream_) {
    upstream_->stream->close();
  }
  if (how == ending::client_side::reset_when_delivered) {
    co_await reset_client_when_delivered();
  } else if (how == ending::client_side::reset) {
    client_.stream.reset();
  } else {
    client_.stream.close();
  }
}

asio::awaitable<bool> exchange::end(ending how) {
  const bool answered = how.client == ending::client_side::answered;
  if (!answered) {
    co_await cut_client(how.client);
  }
  bool client_in_step = true;
  if (upload_) {
    client_in_step = co_await upload_->finish(linger_timeout);
    record_.request_bytes = upload_->outcome().bytes;
  }
  if (upstream_ && upstream_->stream->is_open()) {
    const bool upload_complete = !upload_ || upload_->outcome().complete();
    if (answered && how.store_in_step && upload_complete) {
      owner_.pool.put_back(std::move(upstream_));
    } else {
      upstream_->stream->close();
    }
  }
  co_return answered&& client_in_step && !close_client_;
}

} // namespace s3fault::proxy
