#include "proxy/exchange.hpp"

#include "proxy/exchange_metrics.hpp"
#include "proxy/fault_application.hpp"
#include "proxy/header_fault.hpp"

#include <boost/beast/http/error.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace s3fault::proxy {

exchange::exchange(worker& owner, client_connection client)
    : owner_(owner), client_(client), head_arrived_(clock::now()) {
  record_.started_at = std::chrono::system_clock::now();
  record_.client = client_.peer;
}

asio::awaitable<bool> exchange::serve(request_parser& request, const head_read& head) {
  std::optional<exchange_gauge::hold> counted;
  if (owner_.config.exchanges) {
    counted.emplace(*owner_.config.exchanges); // released after the log line, however this ends
  }
  request_ = &request;
  bool keep_open = false;
  if (head.ec) {
    co_await refuse_bad_head(head);
  } else {
    keep_open = co_await serve_request();
  }
  record_.duration_ms = ms_between(head_arrived_, clock::now());
  log();
  co_return keep_open;
}

asio::awaitable<void> exchange::refuse_bad_head(const head_read& head) {
  record_.method = "-";
  record_.target = "-";
  record_.malformed_head = true;
  const std::string why =
      head.ec == http::error::header_limit
          ? fmt::format("the request head exceeds {} bytes", owner_.config.max_header_bytes)
          : "malformed request head: " + (head.why.empty() ? head.ec.message() : head.why);
  classified_.emplace();
  classified_->why_other = why;
  co_await send_local_error(
      400, head.ec == http::error::header_limit ? "RequestHeaderSectionTooLarge" : "InvalidRequest",
      "s3fault: " + why, true);
}

asio::awaitable<bool> exchange::serve_request() {
  note_request();
  std::string why;
  const auto framing = request_body_framing(*request_, why);
  const auto own_fault = take_header_fault(*request_, owner_.config.allow_header_faults,
                                           owner_.config.faults ? owner_.config.faults->seed() : 0);
  if (own_fault && !own_fault->refusal.empty()) {
    why = own_fault->refusal;
  } else if (!framing) {
    why = "s3fault: rejected request: " + why;
  } else {
    request_framing_ = *framing;
    decide_faults(own_fault ? own_fault->rules : nullptr);
    const bool keep_open = co_await relay_to_store() && request_->keep_alive();
    if (decision_) {
      rules_->settle_injections(*decision_, *classified_);
      record_.faults = describe_injections(decision_->injected);
    }
    co_return keep_open && !owner_.draining;
  }
  co_await send_local_error(400, "InvalidRequest", why, true);
  co_return false;
}

void exchange::note_request() {
  const auto& head = request_->get();
  record_.method = std::string(head.method_string());
  record_.target = std::string(head.target());
  resource_ = std::string_view(record_.target).substr(0, record_.target.find('?'));
  head_request_ = head.method() == http::verb::head;
  store_got_head_ = head_request_;
  if (const auto range = head.find(http::field::range); range != head.end()) {
    record_.range = std::string(range->value());
  }
  if (const auto host = head.find(http::field::host); host != head.end()) {
    record_.host = std::string(host->value());
  }
  if (owner_.config.keeps_heads()) {
    record_.request_headers = redacted_fields(*request_); // as received, before any fault
  }
  for (const auto name : faults::distinguishing_headers()) {
    if (head.find(boost::beast::string_view(name.data(), name.size())) != head.end()) {
      record_.operation_headers.emplace_back(name);
    }
  }
}

void exchange::decide_faults(std::shared_ptr<const faults::rule_set> own_rules) {
  if (own_rules) {
    rules_ = std::move(own_rules); // the request's own fault, and no configured rule
  } else if (!owner_.config.faults) {
    return;
  } else {
    rules_ = owner_.rules.snapshot(*owner_.config.faults);
  }
  if (rules_->rules().empty()) {
    return; // no rules: not even the classification is paid for
  }
  classified_ = faults::classify_request(request_line_of(record_), owner_.config.s3_domains);
  decision_ =
      rules_->decide(*classified_, record_.method, request_header_lookup(*request_), clock::now());
}

asio::awaitable<std::optional<bool>>
exchange::apply_before_store(const faults::before_store_effect& effect) {
  if (effect.delay > clock::duration::zero()) {
    co_await sleep_for(effect.delay);
  }
  using faults::no_answer;
  if (effect.end_without_answer && effect.end_without_answer->how == no_answer::ending::reset) {
    record_.outcome = {outcome_kind::fault_reset_before_store};
    client_.stream.reset();
    co_return false;
  }
  if (effect.end_without_answer) {
    // Silence: wait, reading and dropping whatever comes, until the client gives up.
    record_.outcome = {outcome_kind::fault_hang};
    char sink[4096];
    for (error_code ec; !ec;) {
      client_.stream.expires_after(effect.end_without_answer->silence_limit);
      co_await client_.stream.read_some(asio::buffer(sink), ec);
    }
    co_return false;
  }
  if (!effect.respond) {
    co_return std::nullopt;
  }
  const bool has_body = request_framing_.has_body();
  const bool sent = co_await send_local_response(*effect.respond, has_body);
  if (sent) {
    record_.outcome = {outcome_kind::fault_answered_by_proxy};
  }
  if (has_body && sent) {
    co_await discard_unread_body(request_framing_);
  }
  co_return !has_body && sent;
}

asio::awaitable<bool> exchange::relay_to_store() {
  if (decision_) {
    if (auto ended = co_await apply_before_store(decision_->before)) {
      co_return *ended;
    }
  }
  auto how = co_await send_request();
  if (!how) {
    how = co_await apply_response_faults();
  }
  if (!how) {
    how = co_await relay_response();
  }
  co_return co_await end(*how);
}

void exchange::log() {
  const auto& config = owner_.config;
  const bool logged = owner_.logger->should_log(spdlog::level::info);
  if (!classified_ && (logged || config.metrics || config.keeps_heads())) {
    classified_ = faults::classify_request(request_line_of(record_), config.s3_domains);
  }
  // The log line last: whoever reads it finds the exchange already in /metrics, /stats and
  // the journal.
  if (config.metrics) {
    record_metrics(*config.metrics, record_, *classified_);
  }
  if (config.journal) {
    config.journal->write(record_, *classified_);
  }
  if (config.inspector) {
    config.inspector->add(record_, *classified_);
  }
  if (config.on_exchange) {
    config.on_exchange(record_);
  }
  if (logged) {
    owner_.logger->info(format_exchange(record_, *classified_, config.format));
  }
}

} // namespace s3fault::proxy
