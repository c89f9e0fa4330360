#include "conformance/origin/request_router.hpp"

#include "faults/operations/operation_match.hpp"
#include "text/text.hpp"

#include "conformance/s3/sigv4.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace s3fault::origin {
namespace {

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

/// The lower-case distinguishing headers (faults::distinguishing_headers) `head` carries.
std::vector<std::string> operation_headers(const request_head& head) {
  std::vector<std::string> present;
  for (const auto name : faults::distinguishing_headers()) {
    if (head.has_header(name)) {
      present.emplace_back(name);
    }
  }
  return present;
}

} // namespace

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

  const faults::path_form form = request.bucket.empty() ? faults::path_form::service
                                 : request.key.empty()  ? faults::path_form::bucket
                                                        : faults::path_form::object;
  if (form == faults::path_form::service) {
    request.resource = "/";
  }
  const auto headers = operation_headers(head);
  const std::string_view raw_query =
      question == std::string_view::npos ? std::string_view{} : target.substr(question + 1);
  auto match =
      faults::match_operation({head.method, path, form, request.query.items, headers, raw_query});
  request.op = match.operation;
  request.unknown_subresource = std::move(match.unknown_subresource);
  return request;
}

} // namespace s3fault::origin
