#pragma once
// The S3 error answer shared by `error` (instead of the store) and `forward-then-error` (after
// the store did the work): its parameters, their validation, and the response itself.
#include "faults/actions/action_params.hpp"
#include "faults/fault_action.hpp"

#include <array>
#include <chrono>
#include <optional>
#include <string>

namespace s3fault::faults::actions {

/// What an S3 error answer says. Status and message come from the table of known codes unless
/// overridden; only the parameters given are kept, so to_json gives back what was written.
struct s3_error_reply {
  std::string code;
  std::optional<unsigned> status_override;
  std::optional<std::string> message_override;
  std::optional<std::chrono::seconds> retry_after;
  unsigned status = 500;
  std::string message;

  /// Status, Content-Type application/xml, x-amz-request-id, Retry-After when set, and the S3
  /// error XML naming the request's bucket and key. HEAD requests get no body, as from S3.
  local_response render(const s3_request& request) const;
  /// Adds code and the overrides that were given to `out`.
  void add_to_json(nlohmann::json& out) const;
};

inline constexpr std::array<std::string_view, 4> s3_error_reply_parameters = {
    "code", "status", "message", "retry_after"};

/// Reads code, status, message and retry_after (the reader must accept these four). A code
/// outside the known table needs a status.
std::optional<s3_error_reply> read_s3_error_reply(param_reader& params);

} // namespace s3fault::faults::actions
