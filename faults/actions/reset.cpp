// reset and forward-then-reset: the client's connection dropped with a TCP RST and no answer.
// With `reset` the store never sees the request; with `forward-then-reset` the store does the
// work and answers first, and the answer is lost (did my PUT or my Complete happen?). One
// action type, two moments.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class reset_action final : public fault_action {
public:
  reset_action(std::string_view type, bool after_store) : type_(type), after_store_(after_store) {}

  std::string_view type() const override { return type_; }
  action_phase phase() const override { return action_phase::before_store; }
  nlohmann::json to_json() const override { return {{"type", type()}}; }

  void apply_before_store(before_store_effect& effect, const s3_request&,
                          random_engine&) const override {
    if (after_store_) {
      effect.reset_after_store = true;
    } else {
      effect.end_without_answer = no_answer{no_answer::ending::reset};
    }
  }

private:
  std::string_view type_; // a literal from this file
  bool after_store_;
};

constexpr std::array<std::string_view, 0> reset_parameters = {};

action_kind reset_kind_for(std::string_view type, bool after_store, std::string_view summary,
                           std::string_view example) {
  auto parse = [type, after_store](const nlohmann::json& json,
                                   error_list& errors) -> std::shared_ptr<const fault_action> {
    const param_reader params(type, json, errors, reset_parameters);
    if (!params.ok()) {
      return nullptr;
    }
    return std::make_shared<reset_action>(type, after_store);
  };
  return {type,    action_phase::before_store,
          summary, {},
          parse,   {reset_parameters.begin(), reset_parameters.end()},
          example};
}

} // namespace

action_kind reset_kind() {
  return reset_kind_for(
      "reset", false, "close the client's connection with a TCP RST instead of answering", "reset");
}

action_kind forward_then_reset_kind() {
  return reset_kind_for("forward-then-reset", true,
                        "let the store do the work and answer, then close the client's "
                        "connection with a TCP RST instead of passing the answer on",
                        "forward-then-reset op=CompleteMultipartUpload first=1");
}

} // namespace s3fault::faults::actions
