#include "proxy/proxy_server.hpp"

#include "proxy/client_session.hpp"
#include "proxy/tls_setup.hpp"
#include "proxy/worker.hpp"
#include "runtime/server_runtime.hpp"

#include <spdlog/spdlog.h>

#include <vector>

namespace s3fault::proxy {
namespace {

/// Serves one client connection on `target`'s thread, over TLS when the listener has it.
asio::awaitable<void> serve_connection(worker& target, tcp::socket socket, std::string peer) {
  auto stream = target.listener_tls ? make_tls_stream(std::move(socket), *target.listener_tls)
                                    : make_plain_stream(std::move(socket));
  client_session session(target, std::move(stream), std::move(peer));
  co_await session.run();
}

/// Stops a worker taking new work: no new upstream connections, idle sessions closed, busy
/// ones finishing their exchange.
void drain_worker(worker& w) {
  w.draining = true;
  w.pool.close_all();
  runtime::close_idle_sessions(w.sessions);
}

} // namespace

struct proxy_server::impl {
  impl(proxy_config config, std::shared_ptr<spdlog::logger> logger);

  proxy_config config;
  std::shared_ptr<spdlog::logger> logger;
  std::unique_ptr<asio::ssl::context> listener_tls;
  std::unique_ptr<asio::ssl::context> upstream_tls;
  // Declared before the workers: their io_contexts outlive every worker's state.
  runtime::server_runtime runner;
  std::vector<std::unique_ptr<worker>> workers; // workers[i] runs on runner.context(i)
};

proxy_server::impl::impl(proxy_config config_in, std::shared_ptr<spdlog::logger> logger_in)
    : config(std::move(config_in)), logger(std::move(logger_in)),
      runner({.threads = config.threads,
              .drain_timeout = config.drain_timeout,
              .in_flight = "exchanges"},
             {.start_session =
                  [this](std::size_t index, tcp::socket socket, std::string peer) {
                    return serve_connection(*workers[index], std::move(socket), std::move(peer));
                  },
              .on_drain = [this](std::size_t index) { drain_worker(*workers[index]); }},
             logger) {
  if (config.tls_self_signed) {
    listener_tls = make_server_tls_self_signed(config.tls_self_signed_cert_out);
  } else if (!config.tls_cert_file.empty()) {
    listener_tls = make_server_tls_from_files(config.tls_cert_file, config.tls_key_file);
  }
  if (config.upstream.tls) {
    upstream_tls = make_upstream_tls(config.upstream_ca_file, !config.upstream_insecure);
  }
  const auto upstream_endpoints =
      runtime::resolve_host(config.upstream.host, config.upstream.port, "upstream");
  for (std::size_t i = 0; i < runner.worker_count(); ++i) {
    workers.push_back(std::make_unique<worker>(runner.context(i), config, upstream_endpoints,
                                               upstream_tls.get(), listener_tls.get(), logger));
  }
}

proxy_server::proxy_server(proxy_config config, std::shared_ptr<spdlog::logger> logger)
    : impl_(std::make_unique<impl>(std::move(config), std::move(logger))) {}

proxy_server::~proxy_server() = default;

tcp::endpoint proxy_server::bind() {
  return impl_->runner.bind(impl_->config.listen.host, impl_->config.listen.port);
}

std::string proxy_server::listen_url() const {
  return impl_->runner.listen_url(impl_->listener_tls ? "https" : "http");
}

void proxy_server::run() {
  impl_->runner.run();
}

void proxy_server::request_stop() {
  impl_->runner.request_stop();
}

} // namespace s3fault::proxy
