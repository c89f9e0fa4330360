#include "proxy/request_edits.hpp"

#include "text/text.hpp"

#include <algorithm>

namespace s3fault::proxy {
namespace {

/// The lower-case names a signature covers; nullopt when it does not say (AWS's older
/// signature, which covers every field that matters to it).
std::optional<std::vector<std::string>> signed_header_names(const faults::request_head& head) {
  const auto signed_headers = faults::signature_parameter(head, "SignedHeaders");
  if (!signed_headers) {
    return std::nullopt;
  }
  const std::string& list = *signed_headers;
  std::vector<std::string> names;
  for (std::size_t start = 0; start <= list.size();) {
    const auto semicolon = std::min(list.find(';', start), list.size());
    names.push_back(
        text::ascii_lower(text::trim(std::string_view(list).substr(start, semicolon - start))));
    start = semicolon + 1;
  }
  return names;
}

} // namespace

request_signing signing_of(const faults::request_head& head) {
  if (head.header("Authorization")) {
    return request_signing::header;
  }
  return head.query("X-Amz-Signature") ? request_signing::presigned : request_signing::none;
}

bool edits_break_signature(const faults::request_head& head) {
  if (signing_of(head) == request_signing::none || !head.changed()) {
    return false;
  }
  if (head.method_changed || head.query_changed) {
    return true;
  }
  const auto covered = signed_header_names(head);
  if (!covered) {
    return true;
  }
  return std::any_of(head.changed_headers.begin(), head.changed_headers.end(),
                     [&](const std::string& name) {
                       return std::find(covered->begin(), covered->end(), name) != covered->end();
                     });
}

request_edit_result edit_request(const request_parser& request, faults::exchange_decision& decision,
                                 const request_resigner& resigner) {
  faults::request_head head = forwarded_request_head(request);
  if (!decision.apply_request_actions(head)) {
    return {};
  }
  if (head.resign_requested || edits_break_signature(head)) {
    if (!resigner) {
      return {std::nullopt,
              {},
              "the edit changes what the request's signature covers and the proxy has no keys to "
              "sign it again (--resign-access-key, --resign-secret-key)"};
    }
    if (auto problem = resigner(head)) {
      return {std::nullopt, {}, "the edited request could not be signed again: " + *problem};
    }
  }
  decision.confirm_request_edits();
  return {serialize_request_head(head), head.method, {}};
}

} // namespace s3fault::proxy
