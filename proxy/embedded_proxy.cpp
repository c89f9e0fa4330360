#include "proxy/embedded_proxy.hpp"

#include "proxy/proxy_server.hpp"

#include <spdlog/logger.h>
#include <spdlog/sinks/null_sink.h>

namespace s3fault::proxy {

embedded_proxy::embedded_proxy(const std::string& upstream,
                               std::function<void(const exchange_record&)> on_exchange,
                               unsigned threads, std::uint64_t seed)
    : rules_(std::make_shared<faults::rule_store>(seed, faults::clock::now())) {
  proxy_config config;
  config.listen = {"127.0.0.1", 0};
  config.upstream = text::http_endpoint::parse(upstream);
  config.threads = threads;
  config.faults = rules_;
  config.on_exchange = std::move(on_exchange);
  config.exchanges = exchanges_;
  // A hung reader is ended by the gate's timeout; the proxy lets go of it soon after.
  config.drain_timeout = std::chrono::seconds(2);
  auto quiet = std::make_shared<spdlog::logger>("embedded-proxy",
                                                std::make_shared<spdlog::sinks::null_sink_mt>());
  server_ = std::make_unique<proxy_server>(std::move(config), quiet);
  server_->bind();
  url_ = server_->listen_url();
  thread_ = std::thread([this] { server_->run(); });
}

embedded_proxy::~embedded_proxy() {
  server_->request_stop();
  if (thread_.joinable()) {
    thread_.join();
  }
}

} // namespace s3fault::proxy
