#include "proxy/endpoint.hpp"

#include "text/text.hpp"

#include <stdexcept>

namespace s3fault::proxy {
namespace {

std::uint16_t parse_port(std::string_view text, std::string_view whole) {
  const auto value = text::parse_whole_number<std::uint16_t>(text);
  if (!value) {
    throw std::invalid_argument("'" + std::string(whole) + "': port must be a number 0-65535");
  }
  return *value;
}

// Splits "host:port" or "[v6]:port"; the port part may be empty when `port_required` is false.
std::pair<std::string, std::string_view>
split_host_port(std::string_view text, std::string_view whole, bool port_required) {
  std::string host;
  std::string_view rest;
  if (!text.empty() && text.front() == '[') {
    auto close = text.find(']');
    if (close == std::string_view::npos) {
      throw std::invalid_argument("'" + std::string(whole) + "': missing ']' after IPv6 address");
    }
    host = std::string(text.substr(1, close - 1));
    rest = text.substr(close + 1);
  } else {
    auto colon = text.rfind(':');
    host = std::string(text.substr(0, colon));
    rest = colon == std::string_view::npos ? std::string_view{} : text.substr(colon);
  }
  if (host.empty()) {
    throw std::invalid_argument("'" + std::string(whole) + "': host is missing");
  }
  if (rest.empty()) {
    if (port_required) {
      throw std::invalid_argument("'" + std::string(whole) + "': expected HOST:PORT");
    }
    return {host, {}};
  }
  if (rest.front() != ':') {
    throw std::invalid_argument("'" + std::string(whole) + "': expected ':' before the port");
  }
  return {host, rest.substr(1)};
}

} // namespace

std::string upstream_url::authority() const {
  const bool v6 = host.find(':') != std::string::npos;
  return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

listen_address parse_listen_address(std::string_view text) {
  auto [host, port] = split_host_port(text, text, true);
  return {host, parse_port(port, text)};
}

upstream_url parse_upstream_url(std::string_view text) {
  upstream_url url;
  std::string_view rest;
  if (text.starts_with("http://")) {
    rest = text.substr(7);
  } else if (text.starts_with("https://")) {
    url.tls = true;
    rest = text.substr(8);
  } else {
    throw std::invalid_argument("'" + std::string(text) +
                                "': upstream must start with http:// or https://");
  }
  // A trailing "/" is harmless; any other path would silently change every request, so refuse.
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    if (slash != rest.size() - 1) {
      throw std::invalid_argument("'" + std::string(text) +
                                  "': upstream must not have a path (requests keep their own)");
    }
    rest = rest.substr(0, slash);
  }
  auto [host, port] = split_host_port(rest, text, false);
  url.host = host;
  url.port = port.empty() ? (url.tls ? 443 : 80) : parse_port(port, text);
  if (url.port == 0) {
    throw std::invalid_argument("'" + std::string(text) + "': upstream port must not be 0");
  }
  return url;
}

} // namespace s3fault::proxy
