// Every operation of AWS's S3 service model, read here from the model itself (not from the
// generated catalogue): a request built from its method, URI template and required members is
// that operation for the proxy's classifier and for the origin's router alike. A deprecated
// operation that looks the same on the wire as a current one is that one's alias.
#include "conformance/origin/request_router.hpp"
#include "faults/s3_request.hpp"
#include "text/text.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>

namespace {

using json = nlohmann::json;
using namespace s3fault;

const json& model() {
  static const json loaded = [] {
    std::ifstream file(S3FAULT_S3_MODEL);
    return json::parse(file, nullptr, false);
  }();
  return loaded;
}

struct built_request {
  std::string method, target, host;
  std::vector<std::pair<std::string, std::string>> headers;
};

/// The wire names of the required input members in `location` ("querystring", "header").
std::vector<std::string> required(const json& operation, std::string_view location) {
  std::vector<std::string> names;
  if (!operation.contains("input")) {
    return names;
  }
  const json& shape = model()["shapes"][operation["input"]["shape"].get<std::string>()];
  for (const auto& member : shape.value("required", json::array())) {
    const json& spec = shape["members"][member.get<std::string>()];
    if (spec.value("location", "") == location) {
      names.push_back(spec["locationName"]);
    }
  }
  return names;
}

built_request build(const json& operation) {
  built_request request;
  request.method = operation["http"]["method"];
  std::string target = operation["http"]["requestUri"];
  for (const auto& [placeholder, value] :
       {std::pair{"{Bucket}", "bucket-1"}, {"{Key+}", "dir/k"}}) {
    if (const auto at = target.find(placeholder); at != std::string::npos) {
      target.replace(at, std::string_view(placeholder).size(), value);
    }
  }
  for (const auto& name : required(operation, "querystring")) {
    target += (target.find('?') == std::string::npos ? "?" : "&") + name + "=1";
  }
  request.target = target;
  // An endpoint's host prefix ("{RequestRoute}.") goes before the service's host.
  request.host = operation.contains("endpoint") ? "route-1.s3-object-lambda.us-east-1.amazonaws.com"
                                                : "127.0.0.1:9000";
  for (const auto& name : required(operation, "header")) {
    request.headers.emplace_back(name, "x");
  }
  return request;
}

/// The current operation a deprecated one stands for: the same request on the wire.
std::string current_name(const std::string& name, const json& operation) {
  if (!operation.value("deprecated", false)) {
    return name;
  }
  for (const auto& [other, spec] : model()["operations"].items()) {
    if (!spec.value("deprecated", false) && spec["http"] == operation["http"] &&
        required(spec, "querystring") == required(operation, "querystring") &&
        required(spec, "header") == required(operation, "header")) {
      return other;
    }
  }
  return name;
}

std::string proxy_classifies(const built_request& request) {
  std::vector<std::string> present;
  for (const auto& [name, value] : request.headers) {
    present.push_back(text::ascii_lower(name));
  }
  return std::string(faults::operation_name(
      faults::classify_request({request.method, request.target, request.host, present}).operation));
}

std::string origin_routes(const built_request& request) {
  origin::request_head head;
  head.method = request.method;
  head.target = request.target;
  head.headers = {{"Host", request.host}};
  head.headers.insert(head.headers.end(), request.headers.begin(), request.headers.end());
  return std::string(faults::operation_name(origin::route_request(head, "").op));
}

TEST(ModelOperations, TheModelIsThere) {
  ASSERT_FALSE(model().is_discarded()) << "cannot read " << S3FAULT_S3_MODEL;
  EXPECT_GE(model()["operations"].size(), 97u);
}

TEST(ModelOperations, EveryOperationIsClassifiedAsItselfByTheProxyAndTheOrigin) {
  ASSERT_FALSE(model().is_discarded()) << "cannot read " << S3FAULT_S3_MODEL;
  std::size_t checked = 0;
  for (const auto& [name, operation] : model()["operations"].items()) {
    const built_request request = build(operation);
    const std::string expected = current_name(name, operation);
    SCOPED_TRACE(name + ": " + request.method + " " + request.target);
    EXPECT_EQ(proxy_classifies(request), expected);
    EXPECT_EQ(origin_routes(request), expected);
    ++checked;
  }
  EXPECT_EQ(checked, model()["operations"].size());
}

TEST(ModelOperations, EveryNameIsAnOpNameAndTheDeprecatedOnesAreAliases) {
  ASSERT_FALSE(model().is_discarded()) << "cannot read " << S3FAULT_S3_MODEL;
  std::size_t aliases = 0;
  for (const auto& [name, operation] : model()["operations"].items()) {
    const auto parsed = faults::parse_operation(text::ascii_lower(name));
    ASSERT_TRUE(parsed.has_value()) << name;
    const std::string current = current_name(name, operation);
    EXPECT_EQ(faults::operation_name(*parsed), current) << name;
    aliases += current != name;
  }
  EXPECT_EQ(aliases, 4u); // Get/PutBucketLifecycle, Get/PutBucketNotification
  EXPECT_EQ(faults::catalogue().size(), model()["operations"].size());
}

} // namespace
