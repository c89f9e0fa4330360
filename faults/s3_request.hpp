#pragma once
// What an S3 request is, in S3's terms: the operation (faults/operations/: every operation of
// AWS's S3 model), bucket, key, part number and range, derived from the method, target and a
// few headers. Pure: no sockets, testable with strings.
#include "faults/operations/catalogue.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::faults {

/// The parts of a request the classifier reads.
struct request_line {
  std::string_view method;
  std::string_view target;          // raw path and query as sent
  std::string_view host;            // Host header value, may be empty
  std::vector<std::string> headers; // the distinguishing_headers() sent, lower case
  std::string_view range{};         // Range header value, may be empty
};

struct s3_request {
  s3_operation operation = s3_operation::Other;
  std::string bucket; // empty for service-level requests
  std::string key;    // URL-decoded; empty for bucket-level requests
  std::optional<std::uint32_t> part_number;
  std::optional<std::string> range; // the Range header as sent ("bytes=0-9"), when present
  bool virtual_host = false;
  std::vector<std::pair<std::string, std::string>> query; // decoded, in request order
  std::string why_other; // for Other: why the request is no operation of the model

  /// The value of a query parameter (empty for one without '='); nullopt when absent.
  std::optional<std::string_view> query_value(std::string_view name) const;
};

/// Classifies a request. Virtual-host style is recognised when the Host is `BUCKET.DOMAIN`
/// for one of `domains` (e.g. "s3.example.test"), or for AWS's own S3 host names, or
/// `BUCKET.localhost`; otherwise the request is path-style.
s3_request classify_request(const request_line& line, const std::vector<std::string>& domains = {});

} // namespace s3fault::faults
