// strip-request-header: remove a header from the request before the store sees it, e.g.
// If-Match, so the store answers as one that ignores it (s3rver 3.7).
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class strip_request_header_action final : public fault_action {
public:
  explicit strip_request_header_action(std::string name) : name_(std::move(name)) {}

  std::string_view type() const override { return "strip-request-header"; }
  action_phase phase() const override { return action_phase::request_head; }
  nlohmann::json to_json() const override { return {{"type", type()}, {"name", name_}}; }

  bool apply_to_request(request_head& head) const override { return head.remove_header(name_); }

private:
  std::string name_;
};

constexpr std::array<std::string_view, 1> strip_request_header_parameters = {"name"};

std::shared_ptr<const fault_action> parse_strip_request_header(const nlohmann::json& json,
                                                               error_list& errors) {
  param_reader params("strip-request-header", json, errors, strip_request_header_parameters);
  const auto name = read_editable_header_name(params, "name", header_side::request);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<strip_request_header_action>(*name);
}

} // namespace

action_kind strip_request_header_kind() {
  return {"strip-request-header",
          action_phase::request_head,
          "remove every request header of that name before the store sees the request; counted "
          "only when the request had one",
          {"name"},
          parse_strip_request_header,
          {strip_request_header_parameters.begin(), strip_request_header_parameters.end()},
          "strip-request-header If-Match op=GetObject"};
}

} // namespace s3fault::faults::actions
