#include "conformance/origin/origin_server.hpp"

#include "conformance/origin/origin_worker.hpp"
#include "conformance/origin/storage_backend.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <fmt/format.h>

#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

namespace s3fault::origin {
namespace {

using error_code = boost::system::error_code;

std::string endpoint_text(const tcp::endpoint& endpoint) {
  const auto address = endpoint.address().to_string();
  return endpoint.address().is_v6() ? fmt::format("[{}]:{}", address, endpoint.port())
                                    : fmt::format("{}:{}", address, endpoint.port());
}

std::unique_ptr<storage_backend> open_backend(const std::string& data_dir) {
  if (data_dir.empty()) {
    return make_memory_backend();
  }
  return make_disk_backend(data_dir);
}

} // namespace

struct origin_server::impl {
  origin_config config;
  std::shared_ptr<spdlog::logger> logger;
  std::unique_ptr<origin_service> service;
  std::vector<std::unique_ptr<origin_worker>> workers;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_running;
  std::optional<tcp::acceptor> acceptor;
  tcp::endpoint bound;

  std::mutex mutex;
  std::condition_variable changed;
  bool stop_requested = false;
  unsigned workers_finished = 0;

  asio::awaitable<void> accept_connections();
  void start_session(origin_worker& target, tcp::socket socket, std::string peer);
  void begin_drain();
};

origin_server::origin_server(origin_config config, std::shared_ptr<spdlog::logger> logger)
    : impl_(std::make_unique<impl>()) {
  impl_->config = std::move(config);
  impl_->logger = std::move(logger);
  auto& cfg = impl_->config;
  impl_->service = std::make_unique<origin_service>(cfg.settings, open_backend(cfg.data_dir));
  for (const auto& warning : impl_->service->store().load_warnings()) {
    impl_->logger->warn("data directory: {}", warning);
  }
  const unsigned threads =
      cfg.threads > 0 ? cfg.threads : std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < threads; ++i) {
    impl_->workers.push_back(
        std::make_unique<origin_worker>(*impl_->service, impl_->config, impl_->logger));
    impl_->keep_running.push_back(asio::make_work_guard(impl_->workers.back()->context));
  }
}

origin_server::~origin_server() = default;

origin_service& origin_server::service() {
  return *impl_->service;
}

std::uint16_t origin_server::bind() {
  auto& cfg = impl_->config;
  error_code ec;
  std::vector<tcp::endpoint> endpoints;
  {
    asio::io_context resolving;
    tcp::resolver resolver(resolving);
    for (const auto& entry :
         resolver.resolve(cfg.listen_host, std::to_string(cfg.listen_port), ec)) {
      endpoints.push_back(entry.endpoint());
    }
  }
  if (ec || endpoints.empty()) {
    throw std::runtime_error(
        fmt::format("cannot resolve listen host '{}': {}", cfg.listen_host, ec.message()));
  }
  auto& acceptor = impl_->acceptor.emplace(impl_->workers.front()->context);
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
  return impl_->bound.port();
}

std::string origin_server::listen_url() const {
  return "http://" + endpoint_text(impl_->bound);
}

asio::awaitable<void> origin_server::impl::accept_connections() {
  std::size_t next = 0;
  for (;;) {
    origin_worker& target = *workers[next++ % workers.size()];
    error_code ec;
    asio::any_io_executor target_executor = target.context.get_executor();
    tcp::socket socket = co_await acceptor->async_accept(
        target_executor, asio::redirect_error(asio::use_awaitable, ec));
    if (ec) {
      if (!acceptor->is_open() || ec == asio::error::operation_aborted) {
        co_return;
      }
      logger->warn("accept failed: {}", ec.message());
      asio::steady_timer pause(co_await asio::this_coro::executor, std::chrono::milliseconds(50));
      co_await pause.async_wait(asio::redirect_error(asio::use_awaitable, ec));
      continue;
    }
    socket.set_option(tcp::no_delay(true), ec);
    const auto peer = socket.remote_endpoint(ec);
    start_session(target, std::move(socket), ec ? std::string("?") : endpoint_text(peer));
  }
}

void origin_server::impl::start_session(origin_worker& target, tcp::socket socket,
                                        std::string peer) {
  asio::co_spawn(
      target.context,
      [&target, socket = std::move(socket),
       peer = std::move(peer)]() mutable -> asio::awaitable<void> {
        origin_session session(target, std::move(socket), std::move(peer));
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

void origin_server::impl::begin_drain() {
  asio::post(workers.front()->context, [this] {
    error_code ignored;
    acceptor->close(ignored);
  });
  for (auto& w : workers) {
    asio::post(w->context, [w = w.get()] {
      w->draining = true;
      // Copy first: closing a session can end it, which erases it from the set.
      const std::vector<origin_session*> sessions(w->sessions.begin(), w->sessions.end());
      for (auto* session : sessions) {
        session->close_if_idle();
      }
    });
  }
  keep_running.clear();
}

void origin_server::run() {
  auto& self = *impl_;
  if (!self.acceptor) {
    throw std::logic_error("origin_server::run before bind");
  }
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
  self.logger->info("stopping: no new connections, waiting up to {} ms for requests in flight",
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

void origin_server::request_stop() {
  std::lock_guard lock(impl_->mutex);
  impl_->stop_requested = true;
  impl_->changed.notify_all();
}

} // namespace s3fault::origin
