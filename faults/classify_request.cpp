#include "faults/s3_request.hpp"

#include "text/text.hpp"
#include "text/uri.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace s3fault::faults {
namespace {

struct operation_entry {
  s3_operation operation;
  std::string_view name;
};

constexpr std::array<operation_entry, 22> operation_names = {{
    {s3_operation::GetObject, "GetObject"},
    {s3_operation::HeadObject, "HeadObject"},
    {s3_operation::PutObject, "PutObject"},
    {s3_operation::UploadPart, "UploadPart"},
    {s3_operation::CreateMultipartUpload, "CreateMultipartUpload"},
    {s3_operation::CompleteMultipartUpload, "CompleteMultipartUpload"},
    {s3_operation::AbortMultipartUpload, "AbortMultipartUpload"},
    {s3_operation::ListParts, "ListParts"},
    {s3_operation::ListObjectsV2, "ListObjectsV2"},
    {s3_operation::ListObjects, "ListObjects"},
    {s3_operation::DeleteObject, "DeleteObject"},
    {s3_operation::DeleteObjects, "DeleteObjects"},
    {s3_operation::CopyObject, "CopyObject"},
    {s3_operation::CreateBucket, "CreateBucket"},
    {s3_operation::DeleteBucket, "DeleteBucket"},
    {s3_operation::HeadBucket, "HeadBucket"},
    {s3_operation::ListBuckets, "ListBuckets"},
    {s3_operation::ListObjectVersions, "ListObjectVersions"},
    {s3_operation::GetBucketVersioning, "GetBucketVersioning"},
    {s3_operation::PutBucketVersioning, "PutBucketVersioning"},
    {s3_operation::GetObjectAttributes, "GetObjectAttributes"},
    {s3_operation::Other, "Other"},
}};

std::string_view strip_port(std::string_view host) {
  if (!host.empty() && host.front() == '[') {
    return host; // IPv6 literal: never a virtual host
  }
  return host.substr(0, host.rfind(':'));
}

bool ends_with_label(std::string_view host, std::string_view domain) {
  return host.size() > domain.size() + 1 &&
         text::iequal(host.substr(host.size() - domain.size()), domain) &&
         host[host.size() - domain.size() - 1] == '.';
}

// The bucket named by a virtual-host style Host header, or empty.
std::string bucket_from_host(std::string_view host_header,
                             const std::vector<std::string>& domains) {
  const std::string_view host = strip_port(host_header);
  for (const auto& domain : domains) {
    if (ends_with_label(host, domain)) {
      return std::string(host.substr(0, host.size() - domain.size() - 1));
    }
  }
  if (ends_with_label(host, "localhost")) {
    return std::string(host.substr(0, host.size() - 10));
  }
  // AWS: BUCKET.s3.amazonaws.com, BUCKET.s3.REGION.amazonaws.com, BUCKET.s3-REGION.amazonaws.com
  if (ends_with_label(host, "amazonaws.com")) {
    const std::string_view rest = host.substr(0, host.size() - 14);
    for (std::size_t dot = rest.find('.'); dot != std::string_view::npos;
         dot = rest.find('.', dot + 1)) {
      const std::string_view label = rest.substr(dot + 1);
      if (label.starts_with("s3.") || label == "s3" || label.starts_with("s3-")) {
        return std::string(rest.substr(0, dot));
      }
    }
  }
  return {};
}

// Sub-resources that make a bucket or object request something other than the plain data
// operation (ACLs, tagging, policies, ...).
bool is_subresource(std::string_view name) {
  static constexpr std::array<std::string_view, 24> others = {"acl",
                                                              "tagging",
                                                              "policy",
                                                              "versioning",
                                                              "location",
                                                              "lifecycle",
                                                              "cors",
                                                              "website",
                                                              "logging",
                                                              "notification",
                                                              "replication",
                                                              "encryption",
                                                              "retention",
                                                              "legal-hold",
                                                              "torrent",
                                                              "restore",
                                                              "select",
                                                              "attributes",
                                                              "versions",
                                                              "accelerate",
                                                              "requestPayment",
                                                              "object-lock",
                                                              "ownershipControls",
                                                              "publicAccessBlock"};
  return std::find(others.begin(), others.end(), name) != others.end();
}

std::size_t subresource_count(const s3_request& request) {
  return static_cast<std::size_t>(
      std::count_if(request.query.begin(), request.query.end(),
                    [](const auto& entry) { return is_subresource(entry.first); }));
}

bool has_other_subresource(const s3_request& request) {
  return subresource_count(request) > 0;
}

// True when `name` is the request's one sub-resource (the operations below have exactly one).
bool only_subresource(const s3_request& request, std::string_view name) {
  return request.query_value(name).has_value() && subresource_count(request) == 1;
}

s3_operation bucket_operation(std::string_view method, const s3_request& r) {
  if (only_subresource(r, "versions") && method == "GET") {
    return s3_operation::ListObjectVersions;
  }
  if (only_subresource(r, "versioning") && (method == "GET" || method == "PUT")) {
    return method == "GET" ? s3_operation::GetBucketVersioning : s3_operation::PutBucketVersioning;
  }
  const bool other = has_other_subresource(r);
  if (method == "GET") {
    if (other || r.query_value("uploads")) {
      return s3_operation::Other;
    }
    return r.query_value("list-type") == "2" ? s3_operation::ListObjectsV2
                                             : s3_operation::ListObjects;
  }
  if (method == "PUT") {
    return other ? s3_operation::Other : s3_operation::CreateBucket;
  }
  if (method == "DELETE") {
    return other ? s3_operation::Other : s3_operation::DeleteBucket;
  }
  if (method == "HEAD") {
    return s3_operation::HeadBucket;
  }
  if (method == "POST" && r.query_value("delete")) {
    return s3_operation::DeleteObjects;
  }
  return s3_operation::Other;
}

s3_operation object_operation(std::string_view method, const s3_request& r, bool copy_source) {
  if (method == "GET" && only_subresource(r, "attributes")) {
    return s3_operation::GetObjectAttributes;
  }
  if (has_other_subresource(r)) {
    return s3_operation::Other;
  }
  const bool upload_id = r.query_value("uploadId").has_value();
  if (method == "GET") {
    return upload_id ? s3_operation::ListParts : s3_operation::GetObject;
  }
  if (method == "HEAD") {
    return s3_operation::HeadObject;
  }
  if (method == "PUT") {
    if (upload_id && r.query_value("partNumber")) {
      return s3_operation::UploadPart;
    }
    return copy_source ? s3_operation::CopyObject : s3_operation::PutObject;
  }
  if (method == "POST") {
    if (r.query_value("uploads")) {
      return s3_operation::CreateMultipartUpload;
    }
    return upload_id ? s3_operation::CompleteMultipartUpload : s3_operation::Other;
  }
  if (method == "DELETE") {
    return upload_id ? s3_operation::AbortMultipartUpload : s3_operation::DeleteObject;
  }
  return s3_operation::Other;
}

} // namespace

std::string_view operation_name(s3_operation operation) {
  for (const auto& entry : operation_names) {
    if (entry.operation == operation) {
      return entry.name;
    }
  }
  return "Other";
}

std::optional<s3_operation> parse_operation(std::string_view name) {
  for (const auto& entry : operation_names) {
    if (text::iequal(entry.name, name)) {
      return entry.operation;
    }
  }
  return std::nullopt;
}

const std::vector<s3_operation>& all_operations() {
  static const std::vector<s3_operation> operations = [] {
    std::vector<s3_operation> list;
    for (const auto& entry : operation_names) {
      list.push_back(entry.operation);
    }
    return list;
  }();
  return operations;
}

std::optional<std::string_view> s3_request::query_value(std::string_view name) const {
  for (const auto& [key, value] : query) {
    if (key == name) {
      return std::string_view(value);
    }
  }
  return std::nullopt;
}

s3_request classify_request(const request_line& line, const std::vector<std::string>& domains) {
  s3_request request;
  std::string_view target = line.target;
  // Absolute-form targets (http://host/path) carry the path after the authority.
  if (target.starts_with("http://") || target.starts_with("https://")) {
    const auto slash = target.find('/', target.find("://") + 3);
    target = slash == std::string_view::npos ? std::string_view("/") : target.substr(slash);
  }
  const auto question = target.find('?');
  const std::string_view path = target.substr(0, question);
  if (question != std::string_view::npos) {
    request.query = text::parse_query(target.substr(question + 1));
  }
  std::string_view rest = path.starts_with('/') ? path.substr(1) : path;
  request.bucket = bucket_from_host(line.host, domains);
  request.virtual_host = !request.bucket.empty();
  if (request.virtual_host) {
    request.key = text::uri_decode(rest);
  } else {
    const auto slash = rest.find('/');
    request.bucket = text::uri_decode(rest.substr(0, slash));
    // "//key" names no bucket, so it names no object either (found by fuzz_classify_request).
    if (slash != std::string_view::npos && !request.bucket.empty()) {
      request.key = text::uri_decode(rest.substr(slash + 1));
    }
  }
  if (auto part = request.query_value("partNumber")) {
    request.part_number = text::parse_whole_number<std::uint32_t>(*part);
  }
  if (!line.range.empty()) {
    request.range = std::string(line.range);
  }
  if (request.bucket.empty()) {
    request.operation = line.method == "GET" ? s3_operation::ListBuckets : s3_operation::Other;
  } else if (request.key.empty()) {
    request.operation = bucket_operation(line.method, request);
  } else {
    request.operation = object_operation(line.method, request, line.has_copy_source);
  }
  return request;
}

} // namespace s3fault::faults
