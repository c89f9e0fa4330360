#include "proxy/fault_application.hpp"

#include "faults/rule_set.hpp"
#include <boost/beast/http/status.hpp>
#include <fmt/format.h>

#include <charconv>

namespace s3fault::proxy {

faults::header_lookup request_header_lookup(const request_parser& request) {
  const auto* head = &request.get();
  return [head](std::string_view name) -> std::optional<std::string_view> {
    const auto it = head->find(boost::beast::string_view(name.data(), name.size()));
    if (it == head->end()) {
      return std::nullopt;
    }
    return std::string_view(it->value().data(), it->value().size());
  };
}

void response_head_fields::set_status(unsigned status) {
  head_.result(status);
  head_.reason(http::obsolete_reason(http::int_to_status(status)));
}

std::optional<std::string> response_head_fields::header(std::string_view name) const {
  const auto it = head_.find(boost::beast::string_view(name.data(), name.size()));
  if (it == head_.end()) {
    return std::nullopt;
  }
  return std::string(it->value());
}

void response_head_fields::remove_header(std::string_view name) {
  head_.erase(boost::beast::string_view(name.data(), name.size()));
}

void response_head_fields::set_header(std::string_view name, std::string_view value) {
  head_.set(boost::beast::string_view(name.data(), name.size()),
            boost::beast::string_view(value.data(), value.size()));
}

void announce_body_length(http::response_header<>& head, std::uint64_t length) {
  head.set(http::field::content_length, std::to_string(length));
  const auto range = head.find(http::field::content_range);
  if (range == head.end()) {
    return;
  }
  // "bytes S-E/T": keep S and T, move E.
  const std::string value(range->value());
  std::uint64_t start = 0;
  const auto dash = value.find('-');
  const auto slash = value.find('/');
  if (!value.starts_with("bytes ") || dash == std::string::npos || slash == std::string::npos ||
      std::from_chars(value.data() + 6, value.data() + dash, start).ec != std::errc{}) {
    return; // not a form we can rewrite: leave it as the store sent it
  }
  const std::string rewritten =
      length == 0 ? value
                  : fmt::format("bytes {}-{}{}", start, start + length - 1, value.substr(slash));
  head.set(http::field::content_range, rewritten);
}

std::string serialize_local_response(const faults::local_response& response, bool head_request,
                                     bool close) {
  std::string out =
      fmt::format("HTTP/1.1 {} {}\r\n", response.status,
                  std::string(http::obsolete_reason(http::int_to_status(response.status))));
  for (const auto& [name, value] : response.headers) {
    out += name;
    out += ": ";
    out += value;
    out += "\r\n";
  }
  out += fmt::format("Content-Length: {}\r\n", head_request ? 0 : response.body.size());
  if (close) {
    out += "Connection: close\r\n";
  }
  out += "\r\n";
  if (!head_request) {
    out += response.body;
  }
  return out;
}

std::string describe_injections(const std::vector<faults::injection>& injected) {
  std::string out;
  for (const auto& item : injected) {
    if (!out.empty()) {
      out += ',';
    }
    out += item.rule;
    out += ':';
    out += item.action;
  }
  return out;
}

} // namespace s3fault::proxy
