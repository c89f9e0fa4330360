#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace s3fault::proxy {

/// Who a proxy is and what it stands before: the `proxy` block of `GET /stats` and of the
/// `--report` file, so a report read later still says which proxy, store and seed it measured.
struct proxy_identity {
  std::string version;
  std::string listen;   // the proxy's own URL; empty until it listens
  std::string upstream; // the store's URL, `scheme://host:port`
  std::uint64_t seed = 0;
};

/// {"version", "listen", "upstream", "seed"}.
nlohmann::json identity_json(const proxy_identity& identity);

} // namespace s3fault::proxy
