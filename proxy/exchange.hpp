#pragma once
// One request and its answer, from the request head read to the exchange's end: the faults
// decided for it, the request sent to the store, the store's answer read, the response's faults
// applied, the answer relayed to the client, both connections left as they should be, and the
// exchange logged. client_session reads the heads and hands each one to an exchange.
#include "faults/rule_set.hpp"
#include "proxy/byte_stream.hpp"
#include "proxy/exchange_log.hpp"
#include "proxy/http_head.hpp"
#include "proxy/plain_response_head.hpp"
#include "proxy/request_upload.hpp"
#include "proxy/worker.hpp"

#include <boost/beast/core/flat_buffer.hpp>

#include <memory>
#include <optional>
#include <string>

namespace s3fault::proxy {

struct client_body_failure;

/// The client connection an exchange answers on, owned by its client_session.
struct client_connection {
  byte_stream& stream;
  boost::beast::flat_buffer& buffer; // bytes read past the request head
  const std::string& peer;           // address:port, for logs
};

class exchange {
public:
  exchange(worker& owner, client_connection client);
  exchange(const exchange&) = delete;
  exchange& operator=(const exchange&) = delete;

  /// Serves the request whose head `head` read into `request` (or failed to: then the client is
  /// told why), and logs it. Returns whether the client connection stays open.
  asio::awaitable<bool> serve(request_parser& request, const head_read& head);

private:
  /// When the store answers before the request body has all arrived, or the proxy answers
  /// instead of the store, the client gets this long to finish sending it before the connection
  /// is closed under it.
  static constexpr auto linger_timeout = std::chrono::seconds(5);

  /// How an exchange left its two connections.
  struct ending {
    enum class client_side {
      answered,             // the client got a whole answer; close_client_ says the rest
      close,                // cut now with a FIN: a short body the client must notice
      reset,                // cut now with an RST
      reset_when_delivered, // an RST once every byte written has arrived (reset-after N)
    };
    client_side client = client_side::answered;
    bool store_in_step = false; // the store's response was read to its end: it may be pooled

    static ending answered(bool store_in_step) { return {client_side::answered, store_in_step}; }
    static ending cut(client_side how) { return {how, false}; }
  };
  /// What reading the store's final response head gave.
  struct final_head_read {
    head_read head;
    bool too_many_interim = false;
    error_code client_write_error; // passing an interim response on failed
  };
  struct dropped_answer {
    bool store_body_whole = true; // the store's body was read to its end
    bool client_in_step = true;   // the client's upload (if any) was read to its end
  };

  // The request (exchange.cpp).
  /// Answers a head that could not be read; the connection closes after it. It is logged as
  /// `op=Other` with the reason, and counted as a client error, never as a retry.
  asio::awaitable<void> refuse_bad_head(const head_read& head);
  asio::awaitable<bool> serve_request();
  void note_request();
  /// The rules' decision (none at all when no rule is active); `own_rules` (a request's
  /// x-s3fault-fault) replaces the configured rules for it.
  void decide_faults(std::shared_ptr<const faults::rule_set> own_rules);
  /// Applies what the rules decided before the store: delay, then reset, hang or an answer of
  /// the proxy's own. Returns nullopt when the exchange goes on to the store, else whether the
  /// client connection stays open.
  asio::awaitable<std::optional<bool>>
  apply_before_store(const faults::before_store_effect& effect);
  asio::awaitable<bool> relay_to_store();
  void log();

  // The phases of an exchange with the store, in order. Each returns how the exchange ended
  // when it ended there, nullopt when the next phase follows.
  /// Sends the request (head, then the body on its own coroutine) and reads the store's final
  /// response head; a stale pooled connection is replaced once (exchange_store.cpp).
  asio::awaitable<std::optional<ending>> send_request();
  /// Applies the response's faults: status-dependent rules, head edits, first-byte delay, an
  /// answer instead of the store's, document edits, body filters; then makes the framing match
  /// the status (exchange_response.cpp).
  asio::awaitable<std::optional<ending>> apply_response_faults();
  /// Sends the head and relays the body to the client (exchange_response.cpp).
  asio::awaitable<ending> relay_response();
  /// The one way out of every exchange with the store: the upload awaited, the store connection
  /// pooled or closed, the client connection kept, closed or reset. Returns whether the client
  /// stays.
  asio::awaitable<bool> end(ending how);

  // Sending the request and reading the answer's head (exchange_store.cpp).
  /// The request head the store is sent: the client's, or the one the request actions edited.
  std::string head_for_store();
  void start_upload(const asio::any_io_executor& executor);
  asio::awaitable<final_head_read> read_final_head();
  /// Takes the store's head from the upstream buffer when it is whole there and plain.
  bool take_plain_head();
  /// Turns a failed or refused final head into the client's answer; nullopt for a good head.
  asio::awaitable<std::optional<ending>> check_store_answer(const final_head_read& read);
  /// The store failed or refused before a usable head: a 502/504 to the client.
  asio::awaitable<ending> refuse_failed_store(const final_head_read& read);
  /// The store never got the request: a 502/504 to the client.
  asio::awaitable<ending> refuse_unsent(bool timeout, std::string_view what, const error_code& ec);
  std::string store_error(std::string_view what, const error_code& ec) const;
  /// The client's request body failed (client_body_failure.hpp): a 400 when it can still read
  /// one, else the connection closed; the store is not blamed.
  asio::awaitable<ending> refuse_client_body(const client_body_failure& failure);

  // The response's faults and the relay (exchange_response.cpp).
  asio::awaitable<std::optional<ending>> apply_decided_response_faults();
  asio::awaitable<ending> answer_instead_of_store(const faults::local_response& answer);
  /// The store's answer read to its end and dropped, and the client's upload finished, so both
  /// connections stay in step (forward-then-error, forward-then-reset).
  asio::awaitable<dropped_answer> drop_store_answer();
  /// forward-then-reset: the store answered; the client gets an RST instead of that answer.
  asio::awaitable<ending> reset_instead_of_answer();
  /// Reads the store's whole body (when it is short enough) and applies the document actions
  /// to it; a changed body replaces the store's in the upstream buffer, framed by its length.
  asio::awaitable<void> edit_response_document();
  void announce_filtered_length();
  /// The head for the client; a small body that arrived with it is appended (one write, not
  /// two). Returns the body bytes appended.
  std::uint64_t response_head(std::string& head);
  asio::awaitable<ending> relay_response_body(bool to_client);
  /// A client's HEAD the store was sent as a GET (head-as-get): the client has its head, and
  /// the GET's body is read and dropped when short, else left with its connection, which is
  /// then closed. Returns whether the store connection may be pooled.
  asio::awaitable<bool> drop_body_of_get();
  /// Closes or resets the client connection cut by `how`, the store connection first.
  asio::awaitable<void> cut_client(ending::client_side how);
  bool client_gets_body() const;
  bool store_can_be_reused() const;
  unsigned store_status() const;
  bool store_keep_alive() const;
  /// No rule can change the response: its head may be read as a plain one.
  bool response_untouched() const { return !decision_ || decision_->empty(); }

  // Answers to the client (exchange_answers.cpp).
  asio::awaitable<void> sleep_for(clock::duration duration);
  /// Reads and drops a request body that no store will receive, for a bounded time, so that a
  /// client still sending it can read the error it was sent instead of meeting a reset.
  asio::awaitable<void> discard_unread_body(body_framing framing);
  /// Sends an answer the proxy itself produced; records it only when the client got it.
  asio::awaitable<bool> send_local_response(const faults::local_response& response, bool close);
  /// Sends an error the proxy itself produced, as S3-style XML.
  asio::awaitable<void> send_local_error(unsigned status, std::string_view code,
                                         std::string_view message, bool close);
  /// Resets the client connection once the bytes already written have reached it (bounded by
  /// the I/O timeout; the outcome says so when that wait ran out).
  asio::awaitable<void> reset_client_when_delivered();
  /// Writes the start of an answer to the client (a 1xx, a head, or an answer of the proxy's
  /// own); the first such write that succeeds sets the exchange's time to first byte.
  asio::awaitable<void> write_answer(std::string_view bytes, error_code& ec);
  /// Sets the store's time to first byte at its first response head (interim or final).
  void note_store_head();
  /// Notes the answer's request id and, for an error whose body came whole (the last
  /// `body_bytes` of `answer`), its S3 error code.
  void note_answer(std::string_view answer, std::uint64_t body_bytes);
  /// Keeps the fields of the head the client was sent (`answer` starts with it), redacted,
  /// when the journal or the dashboard shows them.
  void keep_response_head(std::string_view answer);

  worker& owner_;
  client_connection client_;
  clock::time_point head_arrived_; // the request head was read whole
  exchange_record record_;

  // The request.
  request_parser* request_ = nullptr;
  body_framing request_framing_{};
  bool head_request_ = false; // the client asked with HEAD: its answer carries no body
  /// The store was asked with HEAD: its answer has no body. Not the same as head_request_ when
  /// a request edit changed the method (head-as-get sends the client's HEAD as a GET).
  bool store_got_head_ = false;
  std::string_view resource_; // the target's path (in record_.target), for error bodies

  // The fault engine's view: the snapshot the decision was made with (kept alive for the
  // response-status part of the decision), the classified request and the decision. The
  // decision lives until the exchange has ended, whichever way: the in-flight slots it holds
  // for load-shaped rules (faults/load_schedule.hpp) are released when it goes.
  std::shared_ptr<const faults::rule_set> rules_;
  std::optional<faults::s3_request> classified_;
  std::optional<faults::exchange_decision> decision_; // nullopt: no rules, the fast path

  // The store.
  clock::time_point request_sent_{}; // the request head was written to the store
  std::unique_ptr<upstream_connection> upstream_;
  /// The request body's relay, when there is one; end() always awaits its end.
  std::unique_ptr<request_upload> upload_;
  // The store's final head: plain when no rule looks at the response and the head is one
  // (plain_response_head.hpp), else parsed by Beast.
  std::optional<plain_response_head> plain_;
  std::optional<response_parser> response_;
  /// The store's body, as the store sent it (or as document actions left it in the upstream
  /// buffer: then with its new length).
  body_framing response_framing_{};
  bool store_body_until_close_ = false; // the store's body ends with its connection
  std::vector<std::unique_ptr<faults::body_filter>>* response_filters_ = nullptr;
  bool close_client_ = false; // the answer tells the client the connection closes after it
};

} // namespace s3fault::proxy
