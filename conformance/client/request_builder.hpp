#pragma once
// From an S3 request in plain terms (method, bucket, key, query, headers, body) to the exact
// bytes of a request head: the target URI-encoded by S3's rules, the Host for path-style or
// virtual-host addressing, Content-Length, and a SigV4 signature (header or presigned form).
// Pure: the time is passed in; file bodies are only stat()ed for their length.
#include "conformance/client/endpoint.hpp"
#include "conformance/client/http_types.hpp"

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::client {

enum class addressing_style {
  path,         // http://host/bucket/key
  virtual_host, // http://bucket.host/key
};

/// What goes in x-amz-content-sha256.
enum class payload_signing {
  automatic,        // SHA-256 of memory bodies, UNSIGNED-PAYLOAD for file bodies
  unsigned_payload, // always UNSIGNED-PAYLOAD
};

/// One query parameter, decoded. A parameter without a value (`?uploads`) has no value;
/// `?prefix=` has an empty one.
struct query_param {
  std::string name;
  std::optional<std::string> value;
};
using query_list = std::vector<query_param>;

/// A request in S3 terms, before encoding and signing.
struct s3_request {
  std::string method = "GET";
  std::string bucket; // empty: a service-level request (ListBuckets)
  std::string key;    // empty: a bucket-level request
  query_list query;   // sent in this order (the signature sorts its own copy)
  header_list headers;
  body_source body;
  payload_signing payload = payload_signing::automatic;
  /// When set, sign as a presigned URL valid this long instead of an Authorization header.
  std::optional<std::chrono::seconds> presign_expires;
};

/// Settings shared by every request of a client.
struct request_settings {
  endpoint target;
  addressing_style style = addressing_style::path;
  std::string region = "us-east-1";
  std::optional<s3::credentials> credentials; // nullopt: anonymous, nothing is signed
  std::string user_agent;                     // empty: no User-Agent field
};

/// A request ready to send, or why it cannot be built.
struct built_request {
  s3::http_request_view wire;
  std::string error; // set when a file body cannot be used
};

/// "/bucket/key" (path style) or "/key" (virtual host), keys encoded by s3::uri_encode with '/'
/// kept.
std::string encode_path(addressing_style style, std::string_view bucket, std::string_view key);
/// "name=value&flag" with names and values encoded strictly (RFC 3986 unreserved kept).
std::string encode_query(const query_list& query);
/// The Host header value: the endpoint's authority, prefixed with "bucket." for virtual hosts.
std::string host_for(const request_settings& settings, std::string_view bucket);

/// Builds the wire request. Header order: Host, User-Agent, the request's headers in order,
/// Content-Length, then the signing fields (x-amz-date, x-amz-content-sha256, Authorization).
/// Content-Length is added for any body and for PUT/POST without one, unless already present.
/// An x-amz-content-sha256 given in the request's headers is used as the payload hash as is.
built_request build_request(const s3_request& request, const request_settings& settings,
                            std::chrono::system_clock::time_point now);

/// Signs a raw request in place (target as given), with the payload hash of `body` chosen as
/// build_request would. Used by send_raw when asked to sign.
void sign_raw_request(s3::http_request_view& wire, const body_source& body,
                      const request_settings& settings, std::chrono::system_clock::time_point now);

} // namespace s3fault::client
