// resign: have the proxy sign the request with its own keys (proxy --resign-access-key) before
// the store sees it, whatever signature it carried: a wrong secret, none at all. The store then
// accepts any signature, as s3rver 3.7 does. Presigned URLs are kept as sent unless
// presigned=resign, so a store that checks their expiry still does.
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class resign_action final : public fault_action {
public:
  explicit resign_action(bool presigned_too) : presigned_too_(presigned_too) {}

  std::string_view type() const override { return "resign"; }
  action_phase phase() const override { return action_phase::request_head; }
  nlohmann::json to_json() const override {
    return {{"type", type()}, {"presigned", presigned_too_ ? "resign" : "keep"}};
  }

  bool apply_to_request(request_head& head) const override {
    if (!presigned_too_ && head.query("X-Amz-Signature")) {
      return false;
    }
    head.resign_requested = true;
    return true;
  }

private:
  bool presigned_too_;
};

constexpr std::array<std::string_view, 1> resign_parameters = {"presigned"};

std::shared_ptr<const fault_action> parse_resign(const nlohmann::json& json, error_list& errors) {
  param_reader params("resign", json, errors, resign_parameters);
  const auto presigned = params.choice("presigned", need::optional, {"keep", "resign"});
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<resign_action>(presigned.value_or("keep") == "resign");
}

} // namespace

action_kind resign_kind() {
  return {"resign",
          action_phase::request_head,
          "sign the request with the proxy's keys (--resign-access-key) whatever signature it "
          "carried, so the store accepts any; presigned URLs are kept unless presigned=resign",
          {},
          parse_resign,
          {resign_parameters.begin(), resign_parameters.end()},
          "resign"};
}

} // namespace s3fault::faults::actions
