#pragma once
// Request-head faults carried out: the decision's request actions applied to the head the store
// is sent, and the signature renewed when an edit changed a part it covers. The signing itself
// is given to the proxy (proxy/ does not use conformance/, where SigV4 lives; the CLI wires it).
#include "faults/rule_set.hpp"
#include "proxy/http_head.hpp"

#include <functional>
#include <optional>
#include <string>

namespace s3fault::proxy {

/// Signs an edited request head with the proxy's keys (--resign-access-key): replaces its
/// Authorization (or presigned query) with a new signature. Returns why it cannot, or nullopt.
using request_resigner = std::function<std::optional<std::string>(faults::request_head& head)>;

/// How the client signed a request: not at all, in the Authorization field, or in the query.
enum class request_signing { none, header, presigned };
request_signing signing_of(const faults::request_head& head);

/// Whether the edits made to `head` touch what its signature covers: the method and the query
/// (always signed) or a field the signature names (SignedHeaders; every field for a signature
/// that names none).
bool edits_break_signature(const faults::request_head& head);

struct request_edit_result {
  /// The edited head, serialized; nullopt: the client's head goes to the store as it came.
  std::optional<std::string> head;
  /// With `head`: its method, which frames the store's answer (head-as-get sends a HEAD as a
  /// GET: the store's answer then has a body the client's HEAD answer must not carry).
  std::string method;
  /// Why edits were made but not sent (a signature the proxy cannot renew); empty otherwise.
  std::string problem;
};

/// Applies the request actions of `decision` to the head the store is sent. Edits count for
/// their rules (decision.confirm_request_edits) only when they are sent.
request_edit_result edit_request(const request_parser& request, faults::exchange_decision& decision,
                                 const request_resigner& resigner);

} // namespace s3fault::proxy
