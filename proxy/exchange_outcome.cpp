#include "proxy/exchange_outcome.hpp"

#include "proxy/exchange_log.hpp"

namespace s3fault::proxy {
namespace {

std::string base_text(const exchange_outcome& outcome, unsigned client_status) {
  const std::string& detail = outcome.detail;
  switch (outcome.kind) {
  case outcome_kind::ok:
    return "ok";
  case outcome_kind::client_went_away:
    return "client went away: " + detail;
  case outcome_kind::client_went_away_mid_body:
    return "client went away mid-body: " + detail;
  case outcome_kind::client_gone_before_answer:
    return "the client went away before the answer: " + detail;
  case outcome_kind::client_body_refused:
  case outcome_kind::request_refused:
    return detail;
  case outcome_kind::upstream_connect_failed:
    return "upstream connect failed: " + detail;
  case outcome_kind::upstream_write_failed:
    return "upstream write failed: " + detail;
  case outcome_kind::no_store_response:
    return "no response from the store: " + detail;
  case outcome_kind::too_many_interim:
    return "the store sent too many interim responses";
  case outcome_kind::store_failed_mid_body:
    return "store failed mid-body: " + detail;
  case outcome_kind::store_malformed_chunked:
    return "store sent malformed chunked framing: " + detail;
  case outcome_kind::fault_reset_before_store:
    return "fault: connection reset before the store";
  case outcome_kind::fault_hang:
    return "fault: no answer (hang)";
  case outcome_kind::fault_answered_by_proxy:
    return "fault: answered by the proxy";
  case outcome_kind::fault_answer_replaced:
    return "fault: the store answered " + detail + ", the client was told " +
           std::to_string(client_status);
  case outcome_kind::fault_answer_reset:
    return "fault: the store answered " + detail + ", the client got a reset";
  case outcome_kind::fault_upload_reset:
    return "fault: upload reset after " + detail + " bytes";
  case outcome_kind::fault_reset_mid_body:
    return "fault: connection reset mid-body";
  case outcome_kind::fault_body_cut:
    return "fault: body cut short";
  }
  return detail;
}

} // namespace

std::string outcome_text(const exchange_record& record) {
  std::string text = base_text(record.outcome, record.status);
  for (const auto& aside : record.outcome.asides) {
    text += " (" + aside + ")";
  }
  return text;
}

} // namespace s3fault::proxy
