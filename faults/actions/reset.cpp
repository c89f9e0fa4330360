// reset: drop the client's connection with a TCP RST instead of answering.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class reset_action final : public fault_action {
public:
  std::string_view type() const override { return "reset"; }
  action_phase phase() const override { return action_phase::before_store; }
  nlohmann::json to_json() const override { return {{"type", type()}}; }

  void apply_before_store(before_store_effect& effect, const s3_request&,
                          random_engine&) const override {
    effect.end_without_answer = no_answer{no_answer::ending::reset};
  }
};

constexpr std::array<std::string_view, 0> reset_parameters = {};

std::shared_ptr<const fault_action> parse_reset(const nlohmann::json& json, error_list& errors) {
  const param_reader params("reset", json, errors, reset_parameters);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<reset_action>();
}

} // namespace

action_kind reset_kind() {
  return {"reset",
          action_phase::before_store,
          "close the client's connection with a TCP RST instead of answering",
          {},
          parse_reset,
          {reset_parameters.begin(), reset_parameters.end()},
          "reset"};
}

} // namespace s3fault::faults::actions
