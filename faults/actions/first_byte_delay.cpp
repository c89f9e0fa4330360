// first-byte-delay: the store has answered, but the client waits before the first byte of the
// response (time to first byte), e.g. to trip read timeouts.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class first_byte_delay_action final : public fault_action {
public:
  explicit first_byte_delay_action(clock::duration duration) : duration_(duration) {}

  std::string_view type() const override { return "first-byte-delay"; }
  action_phase phase() const override { return action_phase::response_head; }
  nlohmann::json to_json() const override {
    return {{"type", type()}, {"duration", format_duration(duration_)}};
  }

  clock::duration first_byte_delay() const override { return duration_; }

private:
  clock::duration duration_;
};

constexpr std::array<std::string_view, 1> first_byte_delay_parameters = {"duration"};

std::shared_ptr<const fault_action> parse_first_byte_delay(const nlohmann::json& json,
                                                           error_list& errors) {
  param_reader params("first-byte-delay", json, errors, first_byte_delay_parameters);
  const auto duration = params.duration("duration", need::required);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<first_byte_delay_action>(*duration);
}

} // namespace

action_kind first_byte_delay_kind() {
  return {"first-byte-delay",
          action_phase::response_head,
          "hold the store's response for a duration before its first byte reaches the client",
          {"duration"},
          parse_first_byte_delay,
          {first_byte_delay_parameters.begin(), first_byte_delay_parameters.end()},
          "first-byte-delay 3s"};
}

} // namespace s3fault::faults::actions
