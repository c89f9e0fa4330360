#include "conformance/origin/request_router.hpp"

#include "text/text.hpp"

#include "conformance/s3/sigv4.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace s3fault::origin {
namespace {

// Sub-resources of S3 the origin does not serve; a request naming one must not silently turn
// into a GetObject or a listing.
constexpr std::array<std::string_view, 29> unsupported_subresources = {"accelerate",
                                                                       "acl",
                                                                       "analytics",
                                                                       "attributes",
                                                                       "cors",
                                                                       "encryption",
                                                                       "inventory",
                                                                       "intelligent-tiering",
                                                                       "legal-hold",
                                                                       "lifecycle",
                                                                       "logging",
                                                                       "metrics",
                                                                       "notification",
                                                                       "object-lock",
                                                                       "ownershipControls",
                                                                       "policy",
                                                                       "policyStatus",
                                                                       "publicAccessBlock",
                                                                       "replication",
                                                                       "requestPayment",
                                                                       "restore",
                                                                       "retention",
                                                                       "select",
                                                                       "tagging",
                                                                       "torrent",
                                                                       "website",
                                                                       "renameObject",
                                                                       "session"};

/// The bucket named by a virtual-hosted Host ("bucket.domain[:port]"), or empty.
std::string bucket_from_host(std::string_view host, std::string_view domain) {
  if (domain.empty()) {
    return {};
  }
  // Drop the port (the host is a name here, never an IPv6 literal).
  if (const auto colon = host.rfind(':'); colon != std::string_view::npos) {
    host = host.substr(0, colon);
  }
  const std::string host_lower = text::ascii_lower(host);
  const std::string suffix = "." + text::ascii_lower(domain);
  if (host_lower.size() > suffix.size() && host_lower.ends_with(suffix)) {
    return std::string(host.substr(0, host.size() - suffix.size()));
  }
  return {};
}

std::optional<std::string_view> unsupported_in(const query_params& query) {
  for (const auto& [name, value] : query.items) {
    for (auto sub : unsupported_subresources) {
      if (name == sub) {
        return sub;
      }
    }
  }
  return std::nullopt;
}

operation route_service(std::string_view method) {
  return method == "GET" ? operation::list_buckets : operation::method_not_allowed;
}

operation route_bucket(std::string_view method, const query_params& query) {
  if (method == "GET") {
    if (query.has("location")) {
      return operation::get_bucket_location;
    }
    if (query.has("versioning")) {
      return operation::get_bucket_versioning;
    }
    if (query.has("versions")) {
      return operation::list_object_versions;
    }
    if (query.has("uploads")) {
      return operation::list_multipart_uploads;
    }
    return query.get("list-type") == "2" ? operation::list_objects_v2 : operation::list_objects_v1;
  }
  if (method == "PUT") {
    return query.has("versioning") ? operation::put_bucket_versioning : operation::create_bucket;
  }
  if (method == "DELETE") {
    return operation::delete_bucket;
  }
  if (method == "HEAD") {
    return operation::head_bucket;
  }
  if (method == "POST" && query.has("delete")) {
    return operation::delete_objects;
  }
  return operation::method_not_allowed;
}

operation route_object(std::string_view method, const query_params& query,
                       const request_head& head) {
  const bool copy = head.has_header("x-amz-copy-source");
  if (method == "GET") {
    return query.has("uploadId") ? operation::list_parts : operation::get_object;
  }
  if (method == "HEAD") {
    return operation::head_object;
  }
  if (method == "PUT") {
    if (query.has("uploadId") || query.has("partNumber")) {
      return copy ? operation::upload_part_copy : operation::upload_part;
    }
    return copy ? operation::copy_object : operation::put_object;
  }
  if (method == "DELETE") {
    return query.has("uploadId") ? operation::abort_multipart_upload : operation::delete_object;
  }
  if (method == "POST") {
    if (query.has("uploads")) {
      return operation::create_multipart_upload;
    }
    if (query.has("uploadId")) {
      return operation::complete_multipart_upload;
    }
  }
  return operation::method_not_allowed;
}

} // namespace

std::string_view operation_name(operation op) {
  switch (op) {
  case operation::list_buckets:
    return "ListBuckets";
  case operation::create_bucket:
    return "CreateBucket";
  case operation::delete_bucket:
    return "DeleteBucket";
  case operation::head_bucket:
    return "HeadBucket";
  case operation::get_bucket_location:
    return "GetBucketLocation";
  case operation::get_bucket_versioning:
    return "GetBucketVersioning";
  case operation::put_bucket_versioning:
    return "PutBucketVersioning";
  case operation::list_object_versions:
    return "ListObjectVersions";
  case operation::list_objects_v1:
    return "ListObjects";
  case operation::list_objects_v2:
    return "ListObjectsV2";
  case operation::list_multipart_uploads:
    return "ListMultipartUploads";
  case operation::delete_objects:
    return "DeleteObjects";
  case operation::get_object:
    return "GetObject";
  case operation::head_object:
    return "HeadObject";
  case operation::put_object:
    return "PutObject";
  case operation::copy_object:
    return "CopyObject";
  case operation::delete_object:
    return "DeleteObject";
  case operation::create_multipart_upload:
    return "CreateMultipartUpload";
  case operation::upload_part:
    return "UploadPart";
  case operation::upload_part_copy:
    return "UploadPartCopy";
  case operation::complete_multipart_upload:
    return "CompleteMultipartUpload";
  case operation::abort_multipart_upload:
    return "AbortMultipartUpload";
  case operation::list_parts:
    return "ListParts";
  case operation::get_object_tagging:
    return "GetObjectTagging";
  case operation::get_acl:
    return "GetAcl";
  case operation::get_object_attributes:
    return "GetObjectAttributes";
  case operation::not_implemented:
    return "NotImplemented";
  case operation::method_not_allowed:
    return "MethodNotAllowed";
  }
  return "Unknown";
}

std::optional<std::string> query_params::get(std::string_view name) const {
  for (const auto& [key, value] : items) {
    if (key == name) {
      return value;
    }
  }
  return std::nullopt;
}

query_params parse_query(std::string_view query) {
  query_params params;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view item = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (item.empty()) {
      continue;
    }
    const auto eq = item.find('=');
    params.items.emplace_back(s3::uri_decode(item.substr(0, eq)),
                              eq == std::string_view::npos ? std::string()
                                                           : s3::uri_decode(item.substr(eq + 1)));
  }
  return params;
}

s3_request route_request(const request_head& head, std::string_view domain) {
  s3_request request;
  const std::string_view target = head.target;
  const auto question = target.find('?');
  std::string_view path = target.substr(0, question);
  if (question != std::string_view::npos) {
    request.query = parse_query(target.substr(question + 1));
  }
  // An absolute-form target ("http://host/path") names the path after the authority.
  if (path.starts_with("http://") || path.starts_with("https://")) {
    const auto slash = path.find('/', path.find("//") + 2);
    path = slash == std::string_view::npos ? std::string_view("/") : path.substr(slash);
  }
  const std::string decoded = s3::uri_decode(path);
  std::string_view rest = decoded;
  if (rest.starts_with('/')) {
    rest.remove_prefix(1);
  }
  request.bucket = bucket_from_host(head.header("host").value_or(""), domain);
  if (request.bucket.empty()) {
    const auto slash = rest.find('/');
    request.bucket = std::string(rest.substr(0, slash));
    request.key =
        slash == std::string_view::npos ? std::string() : std::string(rest.substr(slash + 1));
  } else {
    request.key = std::string(rest);
  }
  request.resource = "/" + request.bucket + (request.key.empty() ? "" : "/" + request.key);

  const std::string_view method = head.method;
  if (request.bucket.empty()) {
    request.resource = "/";
    request.op = route_service(method);
    return request;
  }
  // Read-only answers for the sub-resources clients read on their way (aws s3 cp copies
  // tags; s3cmd info reads ACLs): nothing is ever set, so there is nothing to report.
  if (method == "GET" && request.query.has("tagging") && !request.key.empty()) {
    request.op = operation::get_object_tagging;
    return request;
  }
  if (method == "GET" && request.query.has("acl")) {
    request.op = operation::get_acl;
    return request;
  }
  if (method == "GET" && request.query.has("attributes") && !request.key.empty()) {
    request.op = operation::get_object_attributes;
    return request;
  }
  // Sub-resources the origin does not serve.
  if (auto sub = unsupported_in(request.query)) {
    request.op = operation::not_implemented;
    request.unsupported = "?" + std::string(*sub);
    return request;
  }
  if (request.query.has("versioning") &&
      ((method != "GET" && method != "PUT") || !request.key.empty())) {
    request.op = operation::not_implemented;
    request.unsupported = "?versioning";
    return request;
  }
  request.op = request.key.empty() ? route_bucket(method, request.query)
                                   : route_object(method, request.query, head);
  return request;
}

} // namespace s3fault::origin
