#include "conformance/origin/origin_server.hpp"

#include "conformance/origin/origin_worker.hpp"
#include "conformance/origin/storage_backend.hpp"
#include "runtime/server_runtime.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace s3fault::origin {
namespace {

/// Half the cores, at least one: the origin's clients (a gate's readers, a bench, a demo)
/// usually run on the same machine, and a thread per core left them too little CPU; on two
/// cores, one thread served small GETs as fast as two and large ones without starving any
/// connection (docs/performance.md, "Why some connections starved").
unsigned default_threads() {
  return std::max(1u, std::thread::hardware_concurrency() / 2);
}

std::unique_ptr<storage_backend> open_backend(const std::string& data_dir) {
  if (data_dir.empty()) {
    return make_memory_backend();
  }
  return make_disk_backend(data_dir);
}

/// Serves one client connection on `target`'s thread.
asio::awaitable<void> serve_connection(origin_worker& target, tcp::socket socket,
                                       std::string peer) {
  origin_session session(target, std::move(socket), std::move(peer));
  co_await session.run();
}

/// Stops a worker taking new requests: idle sessions closed, busy ones finishing their request.
void drain_worker(origin_worker& w) {
  w.draining = true;
  runtime::close_idle_sessions(w.sessions);
}

} // namespace

struct origin_server::impl {
  impl(origin_config config, std::shared_ptr<spdlog::logger> logger);

  origin_config config;
  std::shared_ptr<spdlog::logger> logger;
  std::unique_ptr<origin_service> service;
  // Declared before the workers: their io_contexts outlive every worker's state.
  runtime::server_runtime runner;
  std::vector<std::unique_ptr<origin_worker>> workers; // workers[i] runs on runner.context(i)
};

origin_server::impl::impl(origin_config config_in, std::shared_ptr<spdlog::logger> logger_in)
    : config(std::move(config_in)), logger(std::move(logger_in)),
      service(std::make_unique<origin_service>(config.settings, open_backend(config.data_dir))),
      runner({.threads = config.threads > 0 ? config.threads : default_threads(),
              .drain_timeout = config.drain_timeout,
              .in_flight = "requests"},
             {.start_session =
                  [this](std::size_t index, tcp::socket socket, std::string peer) {
                    return serve_connection(*workers[index], std::move(socket), std::move(peer));
                  },
              .on_drain = [this](std::size_t index) { drain_worker(*workers[index]); }},
             logger) {
  for (const auto& warning : service->store().load_warnings()) {
    logger->warn("data directory: {}", warning);
  }
  for (std::size_t i = 0; i < runner.worker_count(); ++i) {
    workers.push_back(std::make_unique<origin_worker>(*service, config, logger));
  }
}

origin_server::origin_server(origin_config config, std::shared_ptr<spdlog::logger> logger)
    : impl_(std::make_unique<impl>(std::move(config), std::move(logger))) {}

origin_server::~origin_server() = default;

origin_service& origin_server::service() {
  return *impl_->service;
}

std::uint16_t origin_server::bind() {
  return impl_->runner.bind(impl_->config.listen_host, impl_->config.listen_port).port();
}

std::string origin_server::listen_url() const {
  return impl_->runner.listen_url("http");
}

void origin_server::run() {
  impl_->runner.run();
}

void origin_server::request_stop() {
  impl_->runner.request_stop();
}

} // namespace s3fault::origin
