// set-request-header: set a request header (replacing every field of that name, or adding it)
// before the store sees the request.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class set_request_header_action final : public fault_action {
public:
  set_request_header_action(std::string name, std::string value)
      : name_(std::move(name)), value_(std::move(value)) {}

  std::string_view type() const override { return "set-request-header"; }
  action_phase phase() const override { return action_phase::request_head; }
  nlohmann::json to_json() const override {
    return {{"type", type()}, {"name", name_}, {"value", value_}};
  }

  bool apply_to_request(request_head& head) const override {
    return head.set_header(name_, value_);
  }

private:
  std::string name_;
  std::string value_;
};

constexpr std::array<std::string_view, 2> set_request_header_parameters = {"name", "value"};

std::shared_ptr<const fault_action> parse_set_request_header(const nlohmann::json& json,
                                                             error_list& errors) {
  param_reader params("set-request-header", json, errors, set_request_header_parameters);
  const auto name = read_editable_header_name(params, "name", header_side::request);
  const auto value = read_header_value(params, "value");
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<set_request_header_action>(*name, *value);
}

} // namespace

action_kind set_request_header_kind() {
  return {"set-request-header",
          action_phase::request_head,
          "set a request header (replacing every field of that name, or adding it) before the "
          "store sees the request",
          {"name", "value"},
          parse_set_request_header,
          {set_request_header_parameters.begin(), set_request_header_parameters.end()},
          "set-request-header x-amz-request-payer requester"};
}

} // namespace s3fault::faults::actions
