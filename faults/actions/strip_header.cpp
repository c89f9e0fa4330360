// strip-header: remove a header from the store's response, e.g. x-amz-mp-parts-count. It counts
// as injected only in exchanges whose response had the field.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class strip_header_action final : public fault_action {
public:
  explicit strip_header_action(std::string name) : name_(std::move(name)) {}

  std::string_view type() const override { return "strip-header"; }
  action_phase phase() const override { return action_phase::response_head; }
  nlohmann::json to_json() const override { return {{"type", type()}, {"name", name_}}; }

  bool apply_to_head(response_head_editor& head) const override {
    return head.remove_header(name_);
  }
  /// A response without the field is left as it came: the rule did not inject there.
  bool may_change_nothing() const override { return true; }

private:
  std::string name_;
};

constexpr std::array<std::string_view, 1> strip_header_parameters = {"name"};

std::shared_ptr<const fault_action> parse_strip_header(const nlohmann::json& json,
                                                       error_list& errors) {
  param_reader params("strip-header", json, errors, strip_header_parameters);
  const auto name = read_editable_header_name(params, "name", header_side::response);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<strip_header_action>(*name);
}

} // namespace

action_kind strip_header_kind() {
  return {"strip-header",
          action_phase::response_head,
          "remove every response header of that name (case-insensitive); counted as injected "
          "only when the response had one",
          {"name"},
          parse_strip_header,
          {strip_header_parameters.begin(), strip_header_parameters.end()},
          "strip-header x-amz-mp-parts-count"};
}

} // namespace s3fault::faults::actions
