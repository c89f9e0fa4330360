// strip-query: remove a query parameter before the store sees the request, e.g. partNumber, so
// the store answers as one that ignores it (Ceph RGW 16 serves the whole object). Query
// parameters are signed: the proxy signs the edited request again (proxy --resign-*).
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class strip_query_action final : public fault_action {
public:
  explicit strip_query_action(std::string name) : name_(std::move(name)) {}

  std::string_view type() const override { return "strip-query"; }
  action_phase phase() const override { return action_phase::request_head; }
  nlohmann::json to_json() const override { return {{"type", type()}, {"name", name_}}; }

  bool apply_to_request(request_head& head) const override { return head.remove_query(name_); }

private:
  std::string name_;
};

constexpr std::array<std::string_view, 1> strip_query_parameters = {"name"};

std::shared_ptr<const fault_action> parse_strip_query(const nlohmann::json& json,
                                                      error_list& errors) {
  param_reader params("strip-query", json, errors, strip_query_parameters);
  const auto name = read_query_name(params, "name");
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<strip_query_action>(*name);
}

} // namespace

action_kind strip_query_kind() {
  return {"strip-query",
          action_phase::request_head,
          "remove every query parameter of that name from the request before the store sees "
          "it; counted only when the request had one (signed requests: see --resign-access-key)",
          {"name"},
          parse_strip_query,
          {strip_query_parameters.begin(), strip_query_parameters.end()},
          "strip-query partNumber op=GetObject,HeadObject"};
}

} // namespace s3fault::faults::actions
