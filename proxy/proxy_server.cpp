#include "proxy/proxy_server.hpp"

#include "proxy/client_session.hpp"
#include "proxy/tls_setup.hpp"
#include "proxy/worker.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

namespace s3fault::proxy {
namespace {

std::string endpoint_text(const tcp::endpoint& endpoint) {
  const auto address = endpoint.address().to_string();
  return endpoint.address().is_v6() ? fmt::format("[{}]:{}", address, endpoint.port())
                                    : fmt::format("{}:{}", address, endpoint.port());
}

std::vector<tcp::endpoint> resolve(const std::string& host, std::uint16_t port,
                                   std::string_view what) {
  asio::io_context context;
  tcp::resolver resolver(context);
  error_code ec;
  auto results = resolver.resolve(host, std::to_string(port), ec);
  if (ec || results.empty()) {
    throw std::runtime_error(
        fmt::format("cannot resolve {} host '{}': {}", what, host, ec.message()));
  }
  std::vector<tcp::endpoint> endpoints;
  for (const auto& entry : results) {
    endpoints.push_back(entry.endpoint());
  }
  return endpoints;
}

} // namespace

struct proxy_server::impl {
  proxy_config config;
  std::shared_ptr<spdlog::logger> logger;
  std::unique_ptr<asio::ssl::context> listener_tls;
  std::unique_ptr<asio::ssl::context> upstream_tls;
  std::vector<std::unique_ptr<worker>> workers;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_running;
  std::optional<tcp::acceptor> acceptor;
  tcp::endpoint bound;

  std::mutex mutex;
  std::condition_variable changed;
  bool stop_requested = false;
  unsigned workers_finished = 0;

  asio::awaitable<void> accept_connections();
  void start_session(worker& target, tcp::socket socket, std::string peer);
  void begin_drain();
};

proxy_server::proxy_server(proxy_config config, std::shared_ptr<spdlog::logger> logger)
    : impl_(std::make_unique<impl>()) {
  impl_->config = std::move(config);
  impl_->logger = std::move(logger);
  auto& cfg = impl_->config;
  if (cfg.tls_self_signed) {
    impl_->listener_tls = make_server_tls_self_signed();
  } else if (!cfg.tls_cert_file.empty()) {
    impl_->listener_tls = make_server_tls_from_files(cfg.tls_cert_file, cfg.tls_key_file);
  }
  if (cfg.upstream.tls) {
    impl_->upstream_tls = make_upstream_tls(cfg.upstream_ca_file, !cfg.upstream_insecure);
  }
  const auto upstream_endpoints = resolve(cfg.upstream.host, cfg.upstream.port, "upstream");
  const unsigned threads =
      cfg.threads > 0 ? cfg.threads : std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < threads; ++i) {
    impl_->workers.push_back(std::make_unique<worker>(cfg, upstream_endpoints,
                                                      impl_->upstream_tls.get(),
                                                      impl_->listener_tls.get(), impl_->logger));
    impl_->keep_running.push_back(asio::make_work_guard(impl_->workers.back()->context));
  }
}

proxy_server::~proxy_server() = default;

tcp::endpoint proxy_server::bind() {
  auto& cfg = impl_->config;
  const auto endpoints = resolve(cfg.listen.host, cfg.listen.port, "listen");
  auto& acceptor = impl_->acceptor.emplace(impl_->workers.front()->context);
  error_code ec;
  const auto& endpoint = endpoints.front();
  acceptor.open(endpoint.protocol(), ec);
  if (!ec) {
    acceptor.set_option(tcp::acceptor::reuse_address(true), ec);
  }
  if (!ec) {
    acceptor.bind(endpoint, ec);
  }
  if (!ec) {
    acceptor.listen(asio::socket_base::max_listen_connections, ec);
  }
  if (ec) {
    throw std::runtime_error(
        fmt::format("cannot listen on {}: {}", endpoint_text(endpoint), ec.message()));
  }
  impl_->bound = acceptor.local_endpoint();
  return impl_->bound;
}

std::string proxy_server::listen_url() const {
  return fmt::format("{}://{}", impl_->listener_tls ? "https" : "http",
                     endpoint_text(impl_->bound));
}

asio::awaitable<void> proxy_server::impl::accept_connections() {
  std::size_t next = 0;
  for (;;) {
    worker& target = *workers[next++ % workers.size()];
    error_code ec;
    asio::any_io_executor target_executor = target.context.get_executor();
    tcp::socket socket = co_await acceptor->async_accept(target_executor, use_ec(ec));
    if (ec) {
      if (!acceptor->is_open() || ec == asio::error::operation_aborted) {
        co_return;
      }
      // Out of descriptors or similar: say so and back off instead of spinning.
      logger->warn("accept failed: {}", ec.message());
      asio::steady_timer pause(co_await asio::this_coro::executor, std::chrono::milliseconds(50));
      co_await pause.async_wait(use_ec(ec));
      continue;
    }
    socket.set_option(tcp::no_delay(true), ec);
    const auto peer = socket.remote_endpoint(ec);
    start_session(target, std::move(socket), ec ? std::string("?") : endpoint_text(peer));
  }
}

void proxy_server::impl::start_session(worker& target, tcp::socket socket, std::string peer) {
  // The session is built on its own worker's thread: the worker's state has no locks.
  asio::co_spawn(
      target.context,
      [&target, socket = std::move(socket),
       peer = std::move(peer)]() mutable -> asio::awaitable<void> {
        auto stream = target.listener_tls ? make_tls_stream(std::move(socket), *target.listener_tls)
                                          : make_plain_stream(std::move(socket));
        client_session session(target, std::move(stream), std::move(peer));
        co_await session.run();
      },
      [logger = logger](std::exception_ptr failure) {
        if (!failure) {
          return;
        }
        try {
          std::rethrow_exception(failure);
        } catch (const std::exception& error) {
          logger->error("connection ended by an unexpected error: {}", error.what());
        }
      });
}

void proxy_server::impl::begin_drain() {
  asio::post(workers.front()->context, [this] {
    error_code ignored;
    acceptor->close(ignored);
  });
  for (auto& w : workers) {
    asio::post(w->context, [w = w.get()] {
      w->draining = true;
      w->pool.close_all();
      // Copy first: closing a session can end it, which erases it from the set.
      const std::vector<client_session*> sessions(w->sessions.begin(), w->sessions.end());
      for (auto* session : sessions) {
        session->close_if_idle();
      }
    });
  }
  keep_running.clear();
}

void proxy_server::run() {
  auto& self = *impl_;
  asio::co_spawn(self.workers.front()->context, self.accept_connections(), asio::detached);
  std::vector<std::thread> threads;
  for (auto& w : self.workers) {
    threads.emplace_back([&self, w = w.get()] {
      w->context.run();
      std::lock_guard lock(self.mutex);
      ++self.workers_finished;
      self.changed.notify_all();
    });
  }
  std::unique_lock lock(self.mutex);
  self.changed.wait(lock, [&] { return self.stop_requested; });
  lock.unlock();
  self.logger->info("stopping: no new connections, waiting up to {} ms for exchanges in flight",
                    self.config.drain_timeout.count());
  self.begin_drain();
  lock.lock();
  const bool drained = self.changed.wait_for(lock, self.config.drain_timeout, [&] {
    return self.workers_finished == self.workers.size();
  });
  lock.unlock();
  if (!drained) {
    self.logger->warn("drain timeout reached: closing the remaining connections");
    for (auto& w : self.workers) {
      w->context.stop();
    }
  }
  for (auto& thread : threads) {
    thread.join();
  }
}

void proxy_server::request_stop() {
  std::lock_guard lock(impl_->mutex);
  impl_->stop_requested = true;
  impl_->changed.notify_all();
}

} // namespace s3fault::proxy
