// request-throttle: the request body reaches the store at a fixed rate (slow uploads).
#include "faults/actions/action_params.hpp"
#include "faults/actions/body_pacing.hpp"
#include "faults/actions/kinds.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class request_throttle_action final : public fault_action {
public:
  explicit request_throttle_action(std::uint64_t rate) : rate_(rate) {}

  std::string_view type() const override { return "request-throttle"; }
  action_phase phase() const override { return action_phase::request_body; }
  nlohmann::json to_json() const override {
    return {{"type", type()}, {"rate", format_rate(rate_)}};
  }

  std::unique_ptr<body_filter> make_body_filter(random_engine&) const override {
    return std::make_unique<throttle_filter>(rate_);
  }

private:
  std::uint64_t rate_; // bytes per second
};

constexpr std::array<std::string_view, 1> parameters = {"rate"};

std::shared_ptr<const fault_action> parse_request_throttle(const nlohmann::json& json,
                                                           error_list& errors) {
  param_reader params("request-throttle", json, errors, parameters);
  const auto rate = params.rate("rate", need::required);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<request_throttle_action>(*rate);
}

} // namespace

action_kind request_throttle_kind() {
  return {"request-throttle",
          action_phase::request_body,
          "forward the request body to the store at a fixed average rate in bytes per second",
          {"rate"},
          parse_request_throttle,
          {parameters.begin(), parameters.end()}};
}

} // namespace s3fault::faults::actions
