#pragma once
// A request body on its way to the store, relayed by a coroutine of its own so that the store's
// response can be read while the body is still being sent (100-continue, early errors):
//
//   exchange ──start()──> upload coroutine: [wait for 100 Continue] ──relay_body──> store
//                                           then wait for the response head, at most
//                                           response_timeout from the body's last byte
//   exchange ──finish()── always awaited before the exchange ends, by whatever path
//
// The exchange owns the upload and awaits finish() on every path (client_session::end_exchange),
// so the coroutine never outlives the streams it borrows. The wait for the response head lives
// here because its deadline counts from the last byte of the body, not from the request head:
// an upload that takes hours to a healthy store is not a store that does not answer.
#include "proxy/body_relay.hpp"
#include "proxy/completion_event.hpp"
#include "proxy/upstream_pool.hpp"
#include "proxy/worker.hpp"

namespace s3fault::proxy {

class request_upload {
public:
  struct settings {
    byte_stream& client;
    boost::beast::flat_buffer& client_buffer;
    upstream_connection& store;
    body_framing framing;
    bool wait_for_continue = false;
    std::vector<std::unique_ptr<faults::body_filter>>* filters = nullptr;
  };

  request_upload(worker& owner, const asio::any_io_executor& executor, settings settings);
  request_upload(const request_upload&) = delete;
  request_upload& operator=(const request_upload&) = delete;

  /// Starts the coroutine.
  void start();
  /// The store sent 100 Continue: send the body now.
  void release_body() { go_.set(); }
  /// The store answered before asking for the body: it is not sent (the client connection then
  /// cannot carry another request, since the body is still coming).
  void skip_body_if_unsent() {
    if (!started_reading_) {
      abort_ = true;
      go_.set();
    }
  }
  /// The store's response head has arrived (or the exchange stopped waiting for it).
  void response_head_arrived() { head_arrived_.set(); }
  /// Waits for the coroutine to end; if the client has not finished sending within `linger`,
  /// closes the client connection under it. Returns true when the client's body was read to its
  /// end, so the client connection is still in step. Safe to call more than once.
  asio::awaitable<bool> finish(clock::duration linger);

  bool finished() const { return finished_.is_set(); }
  /// The body's relay is over (the coroutine may still be waiting for the response head).
  bool body_relayed() const { return body_relayed_; }
  /// The body began to move (false: the store answered before it was sent).
  bool started_reading() const { return started_reading_; }
  const relay_outcome& outcome() const { return outcome_; }
  /// The store did not begin its response within the response timeout after the body ended;
  /// the store connection was closed for that.
  bool response_timed_out() const { return response_timed_out_; }
  /// A request-body fault reset both connections; `unacknowledged_at_reset` bytes the store had
  /// not acknowledged when the bounded wait for them ran out (0: it got every byte).
  bool reset_by_fault() const {
    return outcome_.ended_by_filter == faults::body_step::ending::reset;
  }
  std::size_t unacknowledged_at_reset() const { return unacknowledged_at_reset_; }

private:
  asio::awaitable<void> run();
  /// Gives the filters the body's declared length, so that a fraction (request-reset-after 50%)
  /// resolves against it.
  void tell_filters_the_length();
  asio::awaitable<void> wait_for_response_head();

  worker& owner_;
  asio::any_io_executor executor_;
  settings settings_;
  completion_event go_;           // 100 Continue came, or the exchange gave up waiting for it
  completion_event head_arrived_; // the store's response head came, or the exchange moved on
  completion_event finished_;     // the coroutine has returned
  bool started_reading_ = false;
  bool body_relayed_ = false;
  bool abort_ = false;
  bool response_timed_out_ = false;
  std::size_t unacknowledged_at_reset_ = 0;
  relay_outcome outcome_;
};

} // namespace s3fault::proxy
