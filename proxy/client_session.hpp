#pragma once
// One client connection: reads request heads, relays each exchange to the store and back, and
// keeps the connection alive between exchanges when both sides allow it.
#include "faults/rule_set.hpp"
#include "proxy/byte_stream.hpp"
#include "proxy/exchange_log.hpp"
#include "proxy/http_head.hpp"
#include "proxy/worker.hpp"

#include <boost/beast/core/flat_buffer.hpp>

#include <memory>
#include <string>

namespace s3fault::proxy {

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
  struct request_pump;

  /// The fault engine's view of one exchange: the snapshot it was decided with (kept alive for
  /// the response-status part of the decision), the classified request and the decision.
  struct fault_context {
    std::shared_ptr<const faults::rule_set> rules;
    faults::s3_request request;
    std::optional<faults::exchange_decision> decision; // nullopt: no rules, the fast path
  };

  /// Serves one exchange; returns whether the client connection stays open.
  asio::awaitable<bool> serve_exchange();
  /// Decides the faults of an exchange (nothing at all when no rule is active).
  fault_context decide_faults(const request_parser& request) const;
  asio::awaitable<bool> relay_to_store(request_parser& request, body_framing request_framing,
                                       fault_context& faults, exchange_record& record);
  asio::awaitable<void>
  pump_request_body(request_pump& pump, upstream_connection& upstream, body_framing framing,
                    bool wait_for_continue,
                    std::vector<std::unique_ptr<faults::body_filter>>* filters);
  /// Applies what the rules decided before the store: delay, then reset, hang or an answer of
  /// the proxy's own. Returns nullopt when the exchange goes on to the store, else whether the
  /// client connection stays open.
  asio::awaitable<std::optional<bool>> apply_before_store(const faults::before_store_effect& effect,
                                                          body_framing request_framing,
                                                          bool head_request,
                                                          exchange_record& record);
  asio::awaitable<void> sleep_for(clock::duration duration);
  /// Reads and drops a request body that no store will receive, for a bounded time, so that a
  /// client still sending it can read the error it was sent instead of meeting a reset.
  asio::awaitable<void> discard_unread_body(body_framing framing);
  /// Sends an error the proxy itself produced, as S3-style XML.
  asio::awaitable<void> send_local_error(unsigned status, std::string_view code,
                                         std::string_view message, std::string_view resource,
                                         bool head_request, bool close, exchange_record& record);
  void log_exchange(const exchange_record& record);

  worker& owner_;
  std::unique_ptr<byte_stream> client_;
  boost::beast::flat_buffer client_buffer_;
  std::string peer_;
  bool idle_ = true;
};

} // namespace s3fault::proxy
