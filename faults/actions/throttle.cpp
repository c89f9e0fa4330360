// throttle and request-throttle: a body trickles at a fixed rate (a response from an overloaded
// store, or an upload over a slow link). One action type applied in either direction.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"
#include "faults/actions/body_pacing.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class throttle_action final : public fault_action {
public:
  throttle_action(std::string_view type, action_phase phase, std::uint64_t rate)
      : type_(type), phase_(phase), rate_(rate) {}

  std::string_view type() const override { return type_; }
  action_phase phase() const override { return phase_; }
  nlohmann::json to_json() const override {
    return {{"type", type()}, {"rate", format_rate(rate_)}};
  }

  std::unique_ptr<body_filter> make_body_filter(random_engine&) const override {
    return std::make_unique<throttle_filter>(rate_);
  }

private:
  std::string_view type_; // a literal from this file
  action_phase phase_;
  std::uint64_t rate_; // bytes per second
};

constexpr std::array<std::string_view, 1> throttle_parameters = {"rate"};

action_kind throttle_kind_for(std::string_view type, action_phase phase, std::string_view summary,
                              std::string_view example) {
  auto parse = [type, phase](const nlohmann::json& json,
                             error_list& errors) -> std::shared_ptr<const fault_action> {
    param_reader params(type, json, errors, throttle_parameters);
    const auto rate = params.rate("rate", need::required);
    if (!params.ok()) {
      return nullptr;
    }
    return std::make_shared<throttle_action>(type, phase, *rate);
  };
  return {type,     phase, summary,
          {"rate"}, parse, {throttle_parameters.begin(), throttle_parameters.end()},
          example};
}

} // namespace

action_kind throttle_kind() {
  return throttle_kind_for("throttle", action_phase::response_body,
                           "send the response body at a fixed average rate in bytes per second",
                           "throttle 1MiB/s");
}

action_kind request_throttle_kind() {
  return throttle_kind_for(
      "request-throttle", action_phase::request_body,
      "forward the request body to the store at a fixed average rate in bytes per second",
      "request-throttle 256KiB/s");
}

} // namespace s3fault::faults::actions
