// set-status: change the status line of the store's response; headers and body pass unchanged.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class set_status_action final : public fault_action {
public:
  explicit set_status_action(unsigned code) : code_(code) {}

  std::string_view type() const override { return "set-status"; }
  action_phase phase() const override { return action_phase::response_head; }
  nlohmann::json to_json() const override { return {{"type", type()}, {"code", code_}}; }

  bool apply_to_head(response_head_editor& head) const override {
    head.set_status(code_);
    return true;
  }

private:
  unsigned code_;
};

constexpr std::array<std::string_view, 1> set_status_parameters = {"code"};

std::shared_ptr<const fault_action> parse_set_status(const nlohmann::json& json,
                                                     error_list& errors) {
  param_reader params("set-status", json, errors, set_status_parameters);
  const auto code =
      params.whole_number("code", need::required, 200, 599,
                          "a final HTTP status from 200 to 599 (1xx are interim responses)");
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<set_status_action>(static_cast<unsigned>(*code));
}

} // namespace

action_kind set_status_kind() {
  return {"set-status",
          action_phase::response_head,
          "replace the response's HTTP status code; headers and body pass unchanged",
          {"code"},
          parse_set_status,
          {set_status_parameters.begin(), set_status_parameters.end()},
          "set-status 503"};
}

} // namespace s3fault::faults::actions
