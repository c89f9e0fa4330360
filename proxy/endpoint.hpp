#pragma once
// Parsing of the addresses given on the command line: `HOST:PORT` to listen on and
// `http(s)://HOST[:PORT]` for the store. Errors are std::invalid_argument with a message that
// names what was wrong, for the CLI to print as is.
#include <cstdint>
#include <string>
#include <string_view>

namespace s3fault::proxy {

/// Where a listener binds. `host` is an IP literal or `localhost`; port 0 means "any free port".
struct listen_address {
  std::string host;
  std::uint16_t port = 0;
};

/// The store the proxy forwards to.
struct upstream_url {
  bool tls = false;
  std::string host; // without brackets for IPv6
  std::uint16_t port = 0;

  std::string scheme() const { return tls ? "https" : "http"; }
  /// `host:port` as used in messages (brackets around IPv6).
  std::string authority() const;
};

listen_address parse_listen_address(std::string_view text);
upstream_url parse_upstream_url(std::string_view text);

} // namespace s3fault::proxy
