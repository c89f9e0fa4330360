// set-query: give a query parameter a value (or add it) before the store sees the request.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class set_query_action final : public fault_action {
public:
  set_query_action(std::string name, std::string value)
      : name_(std::move(name)), value_(std::move(value)) {}

  std::string_view type() const override { return "set-query"; }
  action_phase phase() const override { return action_phase::request_head; }
  nlohmann::json to_json() const override {
    return {{"type", type()}, {"name", name_}, {"value", value_}};
  }

  bool apply_to_request(request_head& head) const override { return head.set_query(name_, value_); }

private:
  std::string name_;
  std::string value_;
};

constexpr std::array<std::string_view, 2> set_query_parameters = {"name", "value"};

std::shared_ptr<const fault_action> parse_set_query(const nlohmann::json& json,
                                                    error_list& errors) {
  param_reader params("set-query", json, errors, set_query_parameters);
  const auto name = read_query_name(params, "name");
  const auto value = params.text("value", need::required, "a value (empty allowed)");
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<set_query_action>(*name, *value);
}

} // namespace

action_kind set_query_kind() {
  return {"set-query",
          action_phase::request_head,
          "set a query parameter of the request (replacing every one of that name, or adding "
          "it) before the store sees it",
          {"name", "value"},
          parse_set_query,
          {set_query_parameters.begin(), set_query_parameters.end()},
          "set-query max-keys 1 op=ListObjectsV2"};
}

} // namespace s3fault::faults::actions
