#pragma once
// The admin API over HTTP: a small server on its own thread that reads a JSON request, lets
// faults::handle_admin_request decide, and writes the JSON answer. Loopback addresses only,
// unless a bearer token guards it (admin_token.hpp).
// GET /metrics (Prometheus text), GET /stats (JSON with quantiles) and GET /history (rates a
// second for the last 15 minutes) show the traffic metrics; GET /exchanges and /exchanges/ID
// the last exchanges, whole; GET /timeline the whole run's timeline and drift (--timeline).
#include "faults/rule_store.hpp"
#include "metrics/traffic_metrics.hpp"
#include "proxy/exchange_inspector.hpp"
#include "text/endpoint.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace spdlog {
class logger;
}

namespace s3fault::proxy {

/// Who may call the admin API, and how much a request may carry.
struct admin_options {
  /// Empty: no Authorization needed, and loopback addresses only.
  std::string token;
  /// Larger request bodies are answered 413 with the limit named.
  std::size_t body_limit = 1024 * 1024;
  /// What the dashboard's header names: the store's address (the proxy's own comes later,
  /// set_proxy_url).
  std::string upstream_url;
  /// The last exchanges, for GET /exchanges and /exchanges/ID; null: those answer 404.
  std::shared_ptr<exchange_inspector> inspector;
  /// GET /timeline's answer ({"timeline", "drift"}; with_buckets for ?buckets=1); empty: the
  /// proxy records none (no --timeline), and it answers 404.
  std::function<nlohmann::json(bool with_buckets)> timeline;
  /// GET /stats' "profile" block: the --profile options and the rules not applied (a partial
  /// profile, cli/profile_keys.hpp); null: no profile, no block.
  nlohmann::json profile;
};

class admin_server {
public:
  /// Binds at once; throws std::runtime_error with a message for the user. Without a token a
  /// non-loopback address is refused (the API changes what the proxy does to traffic); with
  /// one (at least min_admin_token_length characters) every request must carry
  /// `Authorization: Bearer TOKEN` and is answered 401 otherwise.
  admin_server(text::listen_address address, std::shared_ptr<faults::rule_store> store,
               std::shared_ptr<metrics::traffic_metrics> traffic, std::string version,
               std::shared_ptr<spdlog::logger> logger, admin_options options = {});
  ~admin_server(); // stops and joins

  std::string url() const;

  /// The proxy's own address, once it listens: the dashboard's header and curl lines name it.
  void set_proxy_url(std::string url);

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace s3fault::proxy
