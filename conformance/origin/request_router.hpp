#pragma once
// Which S3 operation a request is, on which bucket and key: the bucket from the Host (for
// virtual-hosted buckets, with --domain) or the path, and the operation from the catalogue of
// every operation of AWS's S3 model (faults/operations/), the same rule the proxy matches
// `op=` with. The operations the origin serves are origin_service.cpp's handlers; any other
// operation of the model is answered 501 NotImplemented naming it, and a request that is no
// operation of the model 405 MethodNotAllowed. Pure.
#include "conformance/origin/http_message.hpp"
#include "faults/operations/catalogue.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::origin {

using faults::operation_name;
using faults::s3_operation;

/// The decoded query parameters, in order.
struct query_params {
  std::vector<std::pair<std::string, std::string>> items;

  std::optional<std::string> get(std::string_view name) const;
  bool has(std::string_view name) const { return get(name).has_value(); }
};
query_params parse_query(std::string_view query);

struct s3_request {
  s3_operation op = s3_operation::Other;
  std::string bucket;
  std::string key;
  query_params query;
  /// "/bucket/key", as S3 names the resource in error bodies.
  std::string resource;
  /// A "?name" of no operation of S3's model (an operation newer than it): 501, never a guess.
  std::string unknown_subresource;
};

/// `domain`: the --domain for virtual-hosted buckets (empty: path style only).
s3_request route_request(const request_head& head, std::string_view domain);

} // namespace s3fault::origin
