#include "faults/s3_request.hpp"

#include "faults/operations/operation_match.hpp"

#include "text/text.hpp"
#include "text/uri.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace s3fault::faults {
namespace {

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

} // namespace

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
  const path_form form = request.bucket.empty() ? path_form::service
                         : request.key.empty()  ? path_form::bucket
                                                : path_form::object;
  const std::string_view raw_query =
      question == std::string_view::npos ? std::string_view{} : target.substr(question + 1);
  auto match = match_operation({line.method, path, form, request.query, line.headers, raw_query});
  request.operation = match.operation;
  request.why_other = std::move(match.why_other);
  if (const auto* shape = shape_of(match.operation); shape && shape->form == path_form::literal) {
    request.bucket.clear(); // the path names the operation, the host a route: no bucket
    request.key.clear();
  }
  return request;
}

} // namespace s3fault::faults
