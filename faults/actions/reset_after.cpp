// reset-after and request-reset-after: a body breaks off with a TCP RST after a number of bytes
// or a fraction of its declared length (the response on its way to the client, or the upload on
// its way to the store). One action type applied in either direction. The parameter keeps its
// first name, `bytes`, so rules written for byte counts read and write back as before.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"
#include "faults/actions/body_pacing.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class reset_after_action final : public fault_action {
public:
  reset_after_action(std::string_view type, action_phase phase, size_or_fraction at)
      : type_(type), phase_(phase), at_(at) {}

  std::string_view type() const override { return type_; }
  action_phase phase() const override { return phase_; }
  nlohmann::json to_json() const override { return {{"type", type()}, {"bytes", at_.to_json()}}; }

  std::unique_ptr<body_filter> make_body_filter(random_engine&) const override {
    return std::make_unique<reset_after_filter>(at_);
  }

private:
  std::string_view type_; // a literal from this file
  action_phase phase_;
  size_or_fraction at_;
};

constexpr std::array<std::string_view, 1> reset_after_parameters = {"bytes"};

action_kind reset_after_kind_for(std::string_view type, action_phase phase,
                                 std::string_view summary, std::string_view example) {
  auto parse = [type, phase](const nlohmann::json& json,
                             error_list& errors) -> std::shared_ptr<const fault_action> {
    param_reader params(type, json, errors, reset_after_parameters);
    const auto at = params.offset_or_fraction("bytes", need::required);
    if (!params.ok()) {
      return nullptr;
    }
    return std::make_shared<reset_after_action>(type, phase, *at);
  };
  return {type,      phase, summary,
          {"bytes"}, parse, {reset_after_parameters.begin(), reset_after_parameters.end()},
          example};
}

} // namespace

action_kind reset_after_kind() {
  return reset_after_kind_for(
      "reset-after", action_phase::response_body,
      "send the first bytes of the response body (a count, or a fraction of its declared "
      "length), then reset the connection (TCP RST)",
      "reset-after 1MiB");
}

action_kind request_reset_after_kind() {
  return reset_after_kind_for("request-reset-after", action_phase::request_body,
                              "forward the first bytes of the request body (a count, or a "
                              "fraction of its declared length), then reset the client's "
                              "connection (TCP RST)",
                              "request-reset-after 1MiB");
}

} // namespace s3fault::faults::actions
