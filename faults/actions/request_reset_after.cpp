// request-reset-after: the upload breaks off with a TCP RST after a number of body bytes.
#include "faults/actions/action_params.hpp"
#include "faults/actions/body_pacing.hpp"
#include "faults/actions/kinds.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class request_reset_after_action final : public fault_action {
public:
  explicit request_reset_after_action(std::uint64_t bytes) : bytes_(bytes) {}

  std::string_view type() const override { return "request-reset-after"; }
  action_phase phase() const override { return action_phase::request_body; }
  nlohmann::json to_json() const override { return {{"type", type()}, {"bytes", bytes_}}; }

  std::unique_ptr<body_filter> make_body_filter(random_engine&) const override {
    return std::make_unique<reset_after_filter>(bytes_);
  }

private:
  std::uint64_t bytes_;
};

constexpr std::array<std::string_view, 1> parameters = {"bytes"};

std::shared_ptr<const fault_action> parse_request_reset_after(const nlohmann::json& json,
                                                              error_list& errors) {
  param_reader params("request-reset-after", json, errors, parameters);
  const auto bytes = params.size("bytes", need::required);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<request_reset_after_action>(*bytes);
}

} // namespace

action_kind request_reset_after_kind() {
  return {"request-reset-after",
          action_phase::request_body,
          "forward the first bytes of the request body, then reset the client's connection "
          "(TCP RST)",
          {"bytes"},
          parse_request_reset_after,
          {parameters.begin(), parameters.end()}};
}

} // namespace s3fault::faults::actions
