#pragma once
// Where the client connects: `http(s)://HOST[:PORT]` parsed into plain values, and the Host
// header value that goes with it.
#include <cstdint>
#include <string>
#include <string_view>

namespace s3fault::client {

/// A store address. Errors from `parse` are std::invalid_argument naming what was wrong.
struct endpoint {
  bool tls = false;
  std::string host; // without brackets for IPv6
  std::uint16_t port = 0;

  /// Parses `http://HOST[:PORT]` or `https://HOST[:PORT]` (a trailing `/` is accepted; a path,
  /// query or user info is not). The port defaults to 80 / 443.
  static endpoint parse(std::string_view url);

  std::uint16_t default_port() const { return tls ? 443 : 80; }
  /// `host[:port]` for the Host header: the port is left out when it is the scheme's default,
  /// IPv6 literals are bracketed.
  std::string authority() const;
  /// `http(s)://authority`.
  std::string url() const;
};

} // namespace s3fault::client
