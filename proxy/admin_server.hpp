#pragma once
// The admin API over HTTP: a small server on its own thread that reads a JSON request, lets
// faults::handle_admin_request decide, and writes the JSON answer. Loopback addresses only.
// GET /metrics (Prometheus text) and GET /stats (JSON with quantiles) show the traffic metrics.
#include "faults/rule_store.hpp"
#include "metrics/traffic_metrics.hpp"
#include "proxy/endpoint.hpp"

#include <memory>
#include <string>

namespace spdlog {
class logger;
}

namespace s3fault::proxy {

class admin_server {
public:
  /// Binds at once; throws std::runtime_error with a message for the user (a non-loopback
  /// address is refused: the API changes what the proxy does to traffic).
  admin_server(listen_address address, std::shared_ptr<faults::rule_store> store,
               std::shared_ptr<metrics::traffic_metrics> traffic, std::string version,
               std::shared_ptr<spdlog::logger> logger);
  ~admin_server(); // stops and joins

  std::string url() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace s3fault::proxy
