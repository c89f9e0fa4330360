// head-as-get: send a HEAD that carries a Range to the store as a GET of that range, so that the
// client's HEAD is answered with the head of a ranged GET (206, Content-Range, the range's
// Content-Length), as Ceph RGW 16.2 and s3rver 3.7 answer it; AWS S3 ignores Range on HEAD.
// This file only changes the method; the proxy frames the store's answer as the GET's and the
// client's as a HEAD's, dropping the body (client_session::drop_body_of_get). The method is
// signed: the proxy signs the edited request again (proxy --resign-*).
//
//   client: HEAD /b/k  Range: bytes=0-9 ──> store: GET /b/k  Range: bytes=0-9
//   client: 206, Content-Range, Content-Length: 10, no body <── store: 206 ... + 10 body bytes
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"
#include "faults/rule.hpp"

#include <algorithm>
#include <array>

namespace s3fault::faults::actions {
namespace {

// What a HEAD may be classified as (faults/classify_request.cpp): an object, a bucket, or an
// object or bucket with a sub-resource the classifier does not name.
constexpr std::array<s3_operation, 3> head_operations = {
    s3_operation::HeadObject, s3_operation::HeadBucket, s3_operation::Other};

std::string joined_operations(const std::vector<s3_operation>& operations) {
  std::vector<std::string_view> names;
  for (const auto operation : operations) {
    names.push_back(operation_name(operation));
  }
  return join_names(names);
}

class head_as_get_action final : public fault_action {
public:
  std::string_view type() const override { return "head-as-get"; }
  action_phase phase() const override { return action_phase::request_head; }
  nlohmann::json to_json() const override { return {{"type", type()}}; }

  std::optional<std::string> refuse_match(const match_spec& match) const override {
    const auto& methods = match.methods;
    if (!methods.empty() && std::find(methods.begin(), methods.end(), "HEAD") == methods.end()) {
      std::vector<std::string_view> names(methods.begin(), methods.end());
      return "match.methods: 'head-as-get' acts only on HEAD requests, and the rule takes none "
             "(methods: " +
             join_names(names) + ")";
    }
    const auto& operations = match.operations;
    const bool takes_a_head =
        operations.empty() || std::any_of(operations.begin(), operations.end(), [](auto op) {
          return std::find(head_operations.begin(), head_operations.end(), op) !=
                 head_operations.end();
        });
    if (!takes_a_head) {
      return "match.operations: 'head-as-get' acts only on HEAD requests (HeadObject), and the "
             "rule takes none (operations: " +
             joined_operations(operations) + ")";
    }
    return std::nullopt;
  }

  bool apply_to_request(request_head& head) const override {
    // A HEAD without a Range is answered as a GET of the whole object would be (the same
    // status and length), so a GET would change nothing but cost the store a whole body. Any
    // other method is not this action's business.
    if (head.method != "HEAD" || !head.header("Range")) {
      return false;
    }
    return head.set_method("GET");
  }
};

constexpr std::array<std::string_view, 0> head_as_get_parameters = {};

std::shared_ptr<const fault_action> parse_head_as_get(const nlohmann::json& json,
                                                      error_list& errors) {
  const param_reader params("head-as-get", json, errors, head_as_get_parameters);
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<head_as_get_action>();
}

} // namespace

action_kind head_as_get_kind() {
  return {"head-as-get",
          action_phase::request_head,
          "send a HEAD with a Range to the store as a GET of that range and drop the answer's "
          "body, so the client's HEAD gets the ranged GET's head (206, Content-Range, the "
          "range's Content-Length), as Ceph RGW 16.2 and s3rver answer; counted only on a HEAD "
          "with a Range (signed requests: see --resign-access-key)",
          {},
          parse_head_as_get,
          {head_as_get_parameters.begin(), head_as_get_parameters.end()},
          "head-as-get op=HeadObject header=range"};
}

} // namespace s3fault::faults::actions
