#include "text/endpoint.hpp"

#include "text/text.hpp"

#include <stdexcept>

namespace s3fault::text {
namespace {

[[noreturn]] void refuse(std::string_view whole, std::string_view why) {
  throw std::invalid_argument("'" + std::string(whole) + "': " + std::string(why));
}

std::string bracketed(const std::string& host) {
  return host.find(':') != std::string::npos ? "[" + host + "]" : host;
}

/// "host:port", "[v6]:port" or, when the port may be left out, "host" and "[v6]": the host and
/// the port's text (empty when left out).
std::pair<std::string, std::string_view> split_host_port(std::string_view text,
                                                         std::string_view whole, bool port_needed) {
  std::string host;
  std::string_view rest;
  if (text.starts_with('[')) {
    const auto close = text.find(']');
    if (close == std::string_view::npos) {
      refuse(whole, "missing ']' after the IPv6 address");
    }
    host = std::string(text.substr(1, close - 1));
    rest = text.substr(close + 1);
  } else {
    const auto colon = text.rfind(':');
    host = std::string(text.substr(0, colon));
    rest = colon == std::string_view::npos ? std::string_view{} : text.substr(colon);
    if (host.find(':') != std::string::npos) {
      refuse(whole, "an IPv6 address goes in brackets: [ADDRESS]:PORT");
    }
  }
  if (host.empty()) {
    refuse(whole, "the host is missing");
  }
  if (rest.empty()) {
    if (port_needed) {
      refuse(whole, "expected HOST:PORT");
    }
    return {host, {}};
  }
  if (rest.front() != ':') {
    refuse(whole, "expected ':' before the port");
  }
  return {host, rest.substr(1)};
}

std::uint16_t port_of(std::string_view text, std::string_view whole, std::uint16_t lowest) {
  const auto value = parse_whole_number<std::uint16_t>(text);
  if (!value || *value < lowest) {
    refuse(whole, "the port must be a number in " + std::to_string(lowest) + "..65535");
  }
  return *value;
}

} // namespace

http_endpoint http_endpoint::parse(std::string_view url) {
  http_endpoint endpoint;
  std::string_view rest = url;
  if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else if (rest.starts_with("https://")) {
    endpoint.tls = true;
    rest.remove_prefix(8);
  } else {
    refuse(url, "must start with http:// or https://");
  }
  // A trailing "/" is harmless; a path would silently change every request.
  if (rest.ends_with('/')) {
    rest.remove_suffix(1);
  }
  if (rest.find('/') != std::string_view::npos) {
    refuse(url, "must not have a path (requests keep their own): give scheme, host and port");
  }
  if (rest.find_first_of("?#@") != std::string_view::npos) {
    refuse(url, "only scheme, host and port are allowed (no query, fragment or user info)");
  }
  const auto [host, port] = split_host_port(rest, url, false);
  endpoint.host = host;
  endpoint.port = port.empty() ? endpoint.default_port() : port_of(port, url, 1);
  return endpoint;
}

std::string http_endpoint::host_and_port() const {
  return bracketed(host) + ":" + std::to_string(port);
}

std::string http_endpoint::authority() const {
  return port == default_port() ? bracketed(host) : host_and_port();
}

std::string http_endpoint::url() const {
  return scheme() + "://" + authority();
}

listen_address listen_address::parse(std::string_view text) {
  const auto [host, port] = split_host_port(text, text, true);
  return {host, port_of(port, text, 0)};
}

} // namespace s3fault::text
