#pragma once
// A proxy on background threads of this process, for jobs that drive a client through faults
// (gate, demo): 127.0.0.1, a free port, no log output, rules swapped live through `rules()`,
// every finished exchange reported to `on_exchange`. Stops and joins when destroyed.
//
//   embedded_proxy proxy(origin.url(), [&](const exchange_record& r) { traffic.count(r); });
//   proxy.rules()->replace_all(std::move(built.rules));
//   reader.endpoint = proxy.url();
#include "proxy/proxy_config.hpp"

#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace s3fault::proxy {

class proxy_server;

class embedded_proxy {
public:
  /// Starts proxying to `upstream` (http(s)://HOST:PORT) with no rules, `threads` workers and a
  /// fixed `seed` for the rules' dice. Throws std::runtime_error / std::invalid_argument when it
  /// cannot start.
  embedded_proxy(const std::string& upstream,
                 std::function<void(const exchange_record&)> on_exchange = {}, unsigned threads = 1,
                 std::uint64_t seed = 1);
  ~embedded_proxy();
  embedded_proxy(const embedded_proxy&) = delete;
  embedded_proxy& operator=(const embedded_proxy&) = delete;

  std::string url() const { return url_; }
  /// The live rules (replace_all between runs; each exchange reads one snapshot).
  const std::shared_ptr<faults::rule_store>& rules() const { return rules_; }
  /// Waits until every exchange the proxy began has been reported to `on_exchange` (a client
  /// may have its whole answer, and exit, a moment before that); false if `limit` passed first.
  bool wait_reported(std::chrono::milliseconds limit) { return exchanges_->wait_idle(limit); }

private:
  std::shared_ptr<faults::rule_store> rules_;
  std::shared_ptr<exchange_gauge> exchanges_ = std::make_shared<exchange_gauge>();
  std::unique_ptr<proxy_server> server_;
  std::string url_;
  std::thread thread_;
};

} // namespace s3fault::proxy
