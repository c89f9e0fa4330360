// hang: never answer; the client has to notice by its own timeout. The connection is held open,
// what the client sends read and dropped, for at most an hour.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

// Long past any client's timeout, short enough that a forgotten client does not hold the
// connection for ever.
constexpr auto hang_limit = std::chrono::hours(1);

class hang_action final : public fault_action {
public:
  std::string_view type() const override { return "hang"; }
  action_phase phase() const override { return action_phase::before_store; }
  nlohmann::json to_json() const override { return {{"type", type()}}; }

  void apply_before_store(before_store_effect& effect, const s3_request&,
                          random_engine&) const override {
    effect.end_without_answer = no_answer{no_answer::ending::silence, hang_limit};
  }
};

constexpr std::array<std::string_view, 0> hang_parameters = {};

std::shared_ptr<const fault_action> parse_hang(const nlohmann::json& json, error_list& errors) {
  const param_reader params("hang", json, errors, hang_parameters);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<hang_action>();
}

} // namespace

action_kind hang_kind() {
  return {"hang",
          action_phase::before_store,
          "never answer and keep the connection open: the client must time out",
          {},
          parse_hang,
          {hang_parameters.begin(), hang_parameters.end()},
          "hang"};
}

} // namespace s3fault::faults::actions
