// reset-after: the response body breaks off with a TCP RST after a number of bytes.
#include "faults/actions/action_params.hpp"
#include "faults/actions/body_pacing.hpp"
#include "faults/actions/kinds.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class reset_after_action final : public fault_action {
public:
  explicit reset_after_action(std::uint64_t bytes) : bytes_(bytes) {}

  std::string_view type() const override { return "reset-after"; }
  action_phase phase() const override { return action_phase::response_body; }
  nlohmann::json to_json() const override { return {{"type", type()}, {"bytes", bytes_}}; }

  std::unique_ptr<body_filter> make_body_filter(random_engine&) const override {
    return std::make_unique<reset_after_filter>(bytes_);
  }

private:
  std::uint64_t bytes_;
};

constexpr std::array<std::string_view, 1> parameters = {"bytes"};

std::shared_ptr<const fault_action> parse_reset_after(const nlohmann::json& json,
                                                      error_list& errors) {
  param_reader params("reset-after", json, errors, parameters);
  const auto bytes = params.size("bytes", need::required);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<reset_after_action>(*bytes);
}

} // namespace

action_kind reset_after_kind() {
  return {"reset-after",
          action_phase::response_body,
          "send the first bytes of the response body, then reset the connection (TCP RST)",
          {"bytes"},
          parse_reset_after,
          {parameters.begin(), parameters.end()}};
}

} // namespace s3fault::faults::actions
