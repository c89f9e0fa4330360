// set-header: replace (or add) a header in the store's response.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class set_header_action final : public fault_action {
public:
  set_header_action(std::string name, std::string value)
      : name_(std::move(name)), value_(std::move(value)) {}

  std::string_view type() const override { return "set-header"; }
  action_phase phase() const override { return action_phase::response_head; }
  nlohmann::json to_json() const override {
    return {{"type", type()}, {"name", name_}, {"value", value_}};
  }

  bool apply_to_head(response_head_editor& head) const override {
    head.set_header(name_, value_);
    return true;
  }

private:
  std::string name_;
  std::string value_;
};

constexpr std::array<std::string_view, 2> set_header_parameters = {"name", "value"};

std::shared_ptr<const fault_action> parse_set_header(const nlohmann::json& json,
                                                     error_list& errors) {
  param_reader params("set-header", json, errors, set_header_parameters);
  const auto name = read_editable_header_name(params, "name", header_side::response);
  const auto value = read_header_value(params, "value");
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<set_header_action>(*name, *value);
}

} // namespace

action_kind set_header_kind() {
  return {"set-header",
          action_phase::response_head,
          "set a response header to a value, replacing every field of that name",
          {"name", "value"},
          parse_set_header,
          {set_header_parameters.begin(), set_header_parameters.end()},
          "set-header ETag '\"changed\"'"};
}

} // namespace s3fault::faults::actions
