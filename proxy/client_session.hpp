#pragma once
// One client connection: reads request heads, relays each exchange to the store and back, and
// keeps the connection alive between exchanges when both sides allow it.
#include "faults/rule_set.hpp"
#include "proxy/byte_stream.hpp"
#include "proxy/exchange_log.hpp"
#include "proxy/http_head.hpp"
#include "proxy/request_upload.hpp"
#include "proxy/worker.hpp"

#include <boost/beast/core/flat_buffer.hpp>

#include <memory>
#include <string>

namespace s3fault::proxy {

struct client_body_failure;

class client_session {
public:
  client_session(worker& owner, std::unique_ptr<byte_stream> client, std::string peer);
  ~client_session();
  client_session(const client_session&) = delete;
  client_session& operator=(const client_session&) = delete;

  /// TLS handshake when the listener has TLS, then exchanges until either side closes.
  asio::awaitable<void> run();

  /// Closes the connection when it is between exchanges (used by graceful shutdown).
  void close_if_idle();

private:
  /// The fault engine's view of one exchange: the snapshot it was decided with (kept alive for
  /// the response-status part of the decision), the classified request and the decision.
  struct fault_context {
    std::shared_ptr<const faults::rule_set> rules;
    faults::s3_request request;
    std::optional<faults::exchange_decision> decision; // nullopt: no rules, the fast path
  };
  struct exchange;
  struct exchange_end;
  struct final_head_read;

  /// Serves one exchange; returns whether the client connection stays open.
  asio::awaitable<bool> serve_exchange();
  /// Decides the faults of an exchange (nothing at all when no rule is active).
  /// `record` holds the request line, Host, Range and copy source already read from `request`.
  /// The rules' decision for one exchange; `own_rules` (a request's x-s3fault-fault) replaces
  /// the configured rules for it.
  fault_context decide_faults(const request_parser& request, const exchange_record& record,
                              std::shared_ptr<const faults::rule_set> own_rules) const;
  /// Applies what the rules decided before the store: delay, then reset, hang or an answer of
  /// the proxy's own. Returns nullopt when the exchange goes on to the store, else whether the
  /// client connection stays open.
  asio::awaitable<std::optional<bool>> apply_before_store(const faults::before_store_effect& effect,
                                                          body_framing request_framing,
                                                          bool head_request,
                                                          exchange_record& record);
  asio::awaitable<bool> relay_to_store(request_parser& request, body_framing request_framing,
                                       fault_context& faults, exchange_record& record);

  // The phases of an exchange with the store, in order. Each returns how the exchange ended
  // when it ended there, nullopt when the next phase follows.
  /// Sends the request (head, then the body on its own coroutine) and reads the store's final
  /// response head; a stale pooled connection is replaced once.
  asio::awaitable<std::optional<exchange_end>> send_request(exchange& ex);
  /// Applies the response's faults: status-dependent rules, head edits, first-byte delay, an
  /// answer instead of the store's, document edits, body filters; then makes the framing match
  /// the status.
  asio::awaitable<std::optional<exchange_end>> apply_response_faults(exchange& ex);
  /// Sends the head and relays the body to the client.
  asio::awaitable<exchange_end> relay_response(exchange& ex);
  /// The one way out of every exchange: the upload awaited, the store connection pooled or
  /// closed, the client connection kept, closed or reset. Returns whether the client stays.
  asio::awaitable<bool> end_exchange(exchange& ex, exchange_end end);

  // Steps of the phases.
  /// The request head the store is sent: the client's, or the one the request actions edited.
  std::string head_for_store(exchange& ex);
  void start_upload(exchange& ex, const asio::any_io_executor& executor);
  asio::awaitable<final_head_read> read_final_head(exchange& ex);
  /// Takes the store's head from the upstream buffer when it is whole there and plain.
  bool take_plain_head(exchange& ex) const;
  /// Turns a failed or refused final head into the client's answer; nullopt for a good head.
  asio::awaitable<std::optional<exchange_end>> check_store_answer(exchange& ex,
                                                                  const final_head_read& read);
  /// The store never got the request: a 502/504 to the client.
  asio::awaitable<std::optional<exchange_end>>
  refuse_unsent(exchange& ex, bool timeout, std::string_view what, const error_code& ec);
  std::string store_error(std::string_view what, const error_code& ec) const;
  /// The client's request body failed (client_body_failure.hpp): a 400 when it can still read
  /// one, else the connection closed; the store is not blamed.
  asio::awaitable<exchange_end> refuse_client_body(exchange& ex,
                                                   const client_body_failure& failure);
  asio::awaitable<exchange_end> answer_instead_of_store(exchange& ex,
                                                        const faults::local_response& answer);
  struct dropped_answer {
    bool store_body_whole = true; // the store's body was read to its end
    bool client_in_step = true;   // the client's upload (if any) was read to its end
  };
  /// The store's answer read to its end and dropped, and the client's upload finished, so both
  /// connections stay in step (forward-then-error, forward-then-reset).
  asio::awaitable<dropped_answer> drop_store_answer(exchange& ex);
  /// forward-then-reset: the store answered; the client gets an RST instead of that answer.
  asio::awaitable<exchange_end> reset_instead_of_answer(exchange& ex);
  /// Reads the store's whole body (when it is short enough) and applies the document actions
  /// to it; a changed body replaces the store's in the upstream buffer, framed by its length.
  asio::awaitable<void> edit_response_document(exchange& ex);
  void announce_filtered_length(exchange& ex);
  asio::awaitable<exchange_end> relay_response_body(exchange& ex, bool to_client);
  /// A client's HEAD the store was sent as a GET (head-as-get): the client has its head, and
  /// the GET's body is read and dropped when short, else left with its connection, which is
  /// then closed. Returns whether the store connection may be pooled.
  asio::awaitable<bool> drop_body_of_get(exchange& ex);
  static bool client_gets_body(const exchange& ex);
  static bool store_can_be_reused(const exchange& ex);
  asio::awaitable<void> sleep_for(clock::duration duration);
  /// Reads and drops a request body that no store will receive, for a bounded time, so that a
  /// client still sending it can read the error it was sent instead of meeting a reset.
  asio::awaitable<void> discard_unread_body(body_framing framing);
  /// Sends an answer the proxy itself produced; records it only when the client got it.
  asio::awaitable<bool> send_local_response(const faults::local_response& response,
                                            bool head_request, bool close, exchange_record& record);
  /// Sends an error the proxy itself produced, as S3-style XML.
  asio::awaitable<void> send_local_error(unsigned status, std::string_view code,
                                         std::string_view message, std::string_view resource,
                                         bool head_request, bool close, exchange_record& record);
  /// Resets the client connection once the bytes already written have reached it (bounded by
  /// the I/O timeout; the outcome says so when that wait ran out).
  asio::awaitable<void> reset_client_when_delivered(exchange_record& record);
  /// `classified`: the request as the fault rules classified it, if they did.
  void log_exchange(const exchange_record& record, const faults::s3_request* classified = nullptr);
  /// Writes the start of an answer to the client (a 1xx, a head, or an answer of the proxy's
  /// own); the first such write that succeeds sets the exchange's time to first byte.
  asio::awaitable<void> write_answer(std::string_view bytes, error_code& ec,
                                     exchange_record& record);
  /// Sets the store's time to first byte at its first response head (interim or final).
  static void note_store_head(exchange_record& record, clock::time_point request_sent);
  /// Notes the answer's request id and, for an error whose body came whole (the last
  /// `body_bytes` of `answer`), its S3 error code.
  static void note_answer(exchange_record& record, std::string_view answer,
                          std::uint64_t body_bytes);
  /// Keeps the fields of the head the client was sent (`answer` starts with it), redacted,
  /// when the journal or the dashboard shows them.
  void keep_response_head(exchange_record& record, std::string_view answer) const;

  worker& owner_;
  std::unique_ptr<byte_stream> client_;
  boost::beast::flat_buffer client_buffer_;
  std::string peer_;
  bool idle_ = true;
  clock::time_point head_arrived_{}; // the current exchange's request head was read whole
};

} // namespace s3fault::proxy
