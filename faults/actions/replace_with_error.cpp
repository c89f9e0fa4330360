// replace-with-error: the store does the work and answers; the client gets an S3 error in place
// of that answer, with the store's status unless one is given. Kept status: the "200 OK with an
// <Error> body" that AWS documents for CompleteMultipartUpload and CopyObject. Given status, in a
// rule matching the store's status: another store's answer to the same request (Ceph RGW's 500
// InternalError where AWS says 404 NoSuchUpload).
//
// Unlike forward-then-error, it is decided when the store has answered (so it can follow a
// `status` match) and works on the store's answer: the store's head stays but for the status,
// Content-Type, x-amz-request-id (the error's, as in its body), Retry-After when given, and the
// fields that described the store's body (Content-Range, Content-Encoding; the proxy drops the
// digests of a changed body and sets its length).
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"
#include "faults/actions/s3_error_reply.hpp"
#include "faults/response_document.hpp"

namespace s3fault::faults::actions {
namespace {

class replace_with_error_action final : public fault_action {
public:
  explicit replace_with_error_action(s3_error_reply reply) : reply_(std::move(reply)) {}

  std::string_view type() const override { return "replace-with-error"; }
  action_phase phase() const override { return action_phase::response_document; }
  nlohmann::json to_json() const override {
    nlohmann::json out = {{"type", type()}};
    reply_.add_to_json(out);
    return out;
  }

  bool apply_to_document(response_document& document, const s3_request& request) const override {
    local_response answer = reply_.render(request);
    response_head_editor& head = document.head();
    head.set_status(reply_.status_override.value_or(head.status()));
    for (const auto& [name, value] : answer.headers) {
      head.set_header(name, value);
    }
    head.remove_header("Content-Range");
    head.remove_header("Content-Encoding");
    document.replace_body(std::move(answer.body));
    return true;
  }

private:
  s3_error_reply reply_;
};

std::shared_ptr<const fault_action> parse_replace_with_error(const nlohmann::json& json,
                                                             error_list& errors) {
  param_reader params("replace-with-error", json, errors, s3_error_reply_parameters);
  auto reply = read_s3_error_reply(params);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<replace_with_error_action>(std::move(*reply));
}

} // namespace

action_kind replace_with_error_kind() {
  return {"replace-with-error",
          action_phase::response_document,
          "once the store has answered (and done the work), put an S3 error (XML body, request "
          "id) in place of its answer, keeping the store's status unless one is given: a 200 "
          "with an Error body, or, with a status match, another store's error for that request",
          {"code", "status"},
          parse_replace_with_error,
          {s3_error_reply_parameters.begin(), s3_error_reply_parameters.end()},
          "replace-with-error InternalError 500 status=404 op=CompleteMultipartUpload"};
}

} // namespace s3fault::faults::actions
