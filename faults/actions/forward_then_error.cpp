// forward-then-error: the store does the work, but the client gets an S3 error: the classic
// "did my PUT happen?" ambiguity that makes retries overwrite or duplicate.
#include "faults/actions/action_params.hpp"
#include "faults/actions/kinds.hpp"
#include "faults/actions/s3_error_reply.hpp"

namespace s3fault::faults::actions {
namespace {

class forward_then_error_action final : public fault_action {
public:
  explicit forward_then_error_action(s3_error_reply reply) : reply_(std::move(reply)) {}

  std::string_view type() const override { return "forward-then-error"; }
  action_phase phase() const override { return action_phase::before_store; }
  nlohmann::json to_json() const override {
    nlohmann::json out = {{"type", type()}};
    reply_.add_to_json(out);
    return out;
  }

  void apply_before_store(before_store_effect& effect, const s3_request& request,
                          random_engine&) const override {
    effect.respond_after_store = reply_.render(request);
  }

private:
  s3_error_reply reply_;
};

std::shared_ptr<const fault_action> parse_forward_then_error(const nlohmann::json& json,
                                                             error_list& errors) {
  param_reader params("forward-then-error", json, errors, s3_error_reply_parameters);
  auto reply = read_s3_error_reply(params);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<forward_then_error_action>(std::move(*reply));
}

} // namespace

action_kind forward_then_error_kind() {
  return {"forward-then-error",
          action_phase::before_store,
          "let the store do the work, then answer the client with an S3 error instead",
          {"code", "status"},
          parse_forward_then_error,
          {s3_error_reply_parameters.begin(), s3_error_reply_parameters.end()}};
}

} // namespace s3fault::faults::actions
