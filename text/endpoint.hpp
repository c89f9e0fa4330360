#pragma once
// The one reading of the addresses s3fault is given: `http(s)://HOST[:PORT]` for a store (the
// proxy's --upstream, every client's --endpoint) and `HOST:PORT` to listen on. Errors are
// std::invalid_argument naming the value and what is wrong with it, for the CLI to print as is.
#include <cstdint>
#include <string>
#include <string_view>

namespace s3fault::text {

/// A store's address.
struct http_endpoint {
  bool tls = false;
  std::string host; // without brackets for IPv6
  std::uint16_t port = 0;

  /// `http://HOST[:PORT]` or `https://HOST[:PORT]`, with a trailing `/` accepted; a path, query,
  /// fragment or user info is refused (requests keep their own path). The port is 1..65535 and
  /// defaults to 80 / 443.
  static http_endpoint parse(std::string_view url);

  std::uint16_t default_port() const { return tls ? 443 : 80; }
  std::string scheme() const { return tls ? "https" : "http"; }
  /// `host:port` with the port always written (messages); IPv6 literals bracketed.
  std::string host_and_port() const;
  /// `host[:port]` for the Host header: the port left out when it is the scheme's default.
  std::string authority() const;
  /// `scheme://authority`.
  std::string url() const;
};

/// Where a listener binds: `HOST:PORT` or `[V6]:PORT`; port 0 means "any free port".
struct listen_address {
  std::string host;
  std::uint16_t port = 0;

  static listen_address parse(std::string_view text);
};

} // namespace s3fault::text
