#include "conformance/client/endpoint.hpp"

#include "text/text.hpp"

#include <stdexcept>

namespace s3fault::client {
namespace {

[[noreturn]] void reject(std::string_view url, std::string_view why) {
  throw std::invalid_argument("endpoint '" + std::string(url) + "': " + std::string(why));
}

std::uint16_t parse_port(std::string_view url, std::string_view text) {
  const auto value = text::parse_whole_number<std::uint16_t>(text);
  if (!value || *value == 0) {
    reject(url, "port must be a number in 1..65535");
  }
  return *value;
}

} // namespace

endpoint endpoint::parse(std::string_view url) {
  endpoint result;
  std::string_view rest = url;
  if (rest.starts_with("http://")) {
    rest.remove_prefix(7);
  } else if (rest.starts_with("https://")) {
    result.tls = true;
    rest.remove_prefix(8);
  } else {
    reject(url, "must start with http:// or https://");
  }
  if (rest.ends_with('/')) {
    rest.remove_suffix(1);
  }
  if (rest.find_first_of("/?#@") != std::string_view::npos) {
    reject(url, "only scheme, host and port are allowed");
  }
  std::string_view port_text;
  if (rest.starts_with('[')) {
    const auto close = rest.find(']');
    if (close == std::string_view::npos) {
      reject(url, "unterminated IPv6 literal");
    }
    result.host = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') {
        reject(url, "unexpected text after the IPv6 literal");
      }
      port_text = rest.substr(1);
      result.port = parse_port(url, port_text);
    }
  } else {
    const auto colon = rest.find(':');
    result.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) {
      result.port = parse_port(url, rest.substr(colon + 1));
    }
  }
  if (result.host.empty()) {
    reject(url, "host is empty");
  }
  if (result.port == 0) {
    result.port = result.default_port();
  }
  return result;
}

std::string endpoint::authority() const {
  std::string text = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  if (port != default_port()) {
    text += ":" + std::to_string(port);
  }
  return text;
}

std::string endpoint::url() const {
  return (tls ? "https://" : "http://") + authority();
}

} // namespace s3fault::client
