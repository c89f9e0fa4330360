// error and forward-then-error: the client gets an S3 error. With `error` the store never sees
// the request; with `forward-then-error` the store does the work first (the classic "did my PUT
// happen?" ambiguity that makes retries overwrite or duplicate). One action type, two moments.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"
#include "faults/actions/s3_error_reply.hpp"

namespace s3fault::faults::actions {
namespace {

class error_action final : public fault_action {
public:
  error_action(std::string_view type, bool after_store, s3_error_reply reply)
      : type_(type), after_store_(after_store), reply_(std::move(reply)) {}

  std::string_view type() const override { return type_; }
  action_phase phase() const override { return action_phase::before_store; }
  nlohmann::json to_json() const override {
    nlohmann::json out = {{"type", type()}};
    reply_.add_to_json(out);
    return out;
  }

  void apply_before_store(before_store_effect& effect, const s3_request& request,
                          random_engine&) const override {
    (after_store_ ? effect.respond_after_store : effect.respond) = reply_.render(request);
  }

private:
  std::string_view type_; // a literal from this file
  bool after_store_;
  s3_error_reply reply_;
};

action_kind error_kind_for(std::string_view type, bool after_store, std::string_view summary,
                           std::string_view example) {
  auto parse = [type, after_store](const nlohmann::json& json,
                                   error_list& errors) -> std::shared_ptr<const fault_action> {
    param_reader params(type, json, errors, s3_error_reply_parameters);
    auto reply = read_s3_error_reply(params);
    if (!params.ok()) {
      return nullptr;
    }
    return std::make_shared<error_action>(type, after_store, std::move(*reply));
  };
  return {type,    action_phase::before_store,
          summary, {"code", "status"},
          parse,   {s3_error_reply_parameters.begin(), s3_error_reply_parameters.end()},
          example};
}

} // namespace

action_kind error_kind() {
  return error_kind_for("error", false,
                        "answer with an S3 error (XML body, request id, optional Retry-After) "
                        "instead of the store",
                        "error SlowDown retry_after=2");
}

action_kind forward_then_error_kind() {
  return error_kind_for("forward-then-error", true,
                        "let the store do the work, then answer the client with an S3 error "
                        "instead",
                        "forward-then-error InternalError op=CompleteMultipartUpload");
}

} // namespace s3fault::faults::actions
