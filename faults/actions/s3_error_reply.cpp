#include "faults/actions/s3_error_reply.hpp"

#include "faults/s3_error_body.hpp"
#include "faults/s3_error_codes.hpp"
#include "s3_errors/s3_error_codes.hpp"

#include <algorithm>

namespace s3fault::faults::actions {
namespace {

bool is_code_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
         c == '_' || c == '-';
}

bool is_head(const s3_request& request) {
  return request.operation == s3_operation::HeadObject ||
         request.operation == s3_operation::HeadBucket;
}

std::string resource_of(const s3_request& request) {
  std::string resource = "/" + request.bucket;
  if (!request.key.empty()) {
    resource += "/" + request.key;
  }
  return resource;
}

} // namespace

local_response s3_error_reply::render(const s3_request& request) const {
  const std::string request_id = make_request_id();
  local_response response;
  response.status = status;
  response.headers.emplace_back("Content-Type", "application/xml");
  response.headers.emplace_back("x-amz-request-id", request_id);
  if (retry_after) {
    response.headers.emplace_back("Retry-After", std::to_string(retry_after->count()));
  }
  // S3 sends the status and headers of an error to a HEAD but no body.
  if (!is_head(request)) {
    response.body = render_s3_error_xml(code, message, resource_of(request), request_id);
  }
  return response;
}

void s3_error_reply::add_to_json(nlohmann::json& out) const {
  out["code"] = code;
  if (status_override) {
    out["status"] = *status_override;
  }
  if (message_override) {
    out["message"] = *message_override;
  }
  if (retry_after) {
    out["retry_after"] = retry_after->count();
  }
}

std::optional<s3_error_reply> read_s3_error_reply(param_reader& params) {
  constexpr std::string_view code_example = "an S3 error code like SlowDown";
  s3_error_reply reply;
  const auto code = params.text("code", need::required, code_example);
  const auto status =
      params.whole_number("status", need::optional, 200, 599,
                          "a final HTTP status from 200 to 599 (1xx are interim responses)");
  const auto message = params.text("message", need::optional, "text");
  const auto retry_after = params.duration("retry_after", need::optional);
  if (code) {
    if (code->empty() || code->size() > 64 ||
        !std::all_of(code->begin(), code->end(), is_code_char)) {
      params.reject("code", code_example);
    } else if (const auto* known = s3_errors::find_s3_error_code(*code)) {
      reply.status = known->status;
      reply.message = known->message;
    } else if (!params.has("status")) {
      params.fail("code", "unknown S3 error code \"" + *code +
                              "\" (give a status with it, or use one of " +
                              known_s3_error_code_list() + ")");
    } else {
      reply.message = *code; // a custom code without a message says its name
    }
    reply.code = *code;
  }
  if (status) {
    reply.status = static_cast<unsigned>(*status);
    reply.status_override = reply.status;
  }
  if (message) {
    if (!is_header_value(*message)) {
      params.reject("message", "text without control characters");
    }
    reply.message = *message;
    reply.message_override = *message;
  }
  if (retry_after) {
    if (*retry_after % std::chrono::seconds(1) != clock::duration::zero()) {
      params.reject("retry_after", "a whole number of seconds like 5 or \"2m\"");
    }
    reply.retry_after = std::chrono::duration_cast<std::chrono::seconds>(*retry_after);
  }
  if (!params.ok()) {
    return std::nullopt;
  }
  return reply;
}

} // namespace s3fault::faults::actions
