#include "runtime/server_runtime.hpp"

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <csignal>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

namespace s3fault::runtime {
namespace {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

std::string endpoint_text(const tcp::endpoint& endpoint) {
  const auto address = endpoint.address().to_string();
  return endpoint.address().is_v6() ? fmt::format("[{}]:{}", address, endpoint.port())
                                    : fmt::format("{}:{}", address, endpoint.port());
}

/// Completion token for coroutines: errors come back in `ec` instead of as exceptions.
auto use_ec(error_code& ec) {
  return asio::redirect_error(asio::use_awaitable, ec);
}

/// An io_context whose queued work can be destroyed while the caller's per-worker state still
/// exists. After a drain timeout the connections still in flight are suspended coroutines held
/// by the context; destroying them in ~io_context would run their destructors after the state
/// they refer to (the proxy's workers) is gone.
class worker_context : public asio::io_context {
public:
  // One thread per context, and every socket's I/O on its context's thread: the reactor's lock
  // per descriptor is not needed (it was 2 % of the proxy's time on small exchanges). Posting
  // between contexts and registering sockets (the acceptor runs on context 0) stay locked.
  worker_context() : asio::io_context(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE_IO) {}
  /// Destroys every pending handler (and so every suspended session) now; call when no thread
  /// runs the context.
  void discard_pending_work() { shutdown(); }
};

/// Counts the sessions alive, so the drain can say how many it had to cut.
class session_count_guard {
public:
  explicit session_count_guard(std::atomic<std::size_t>& count) : count_(count) { ++count_; }
  ~session_count_guard() { --count_; }
  session_count_guard(const session_count_guard&) = delete;
  session_count_guard& operator=(const session_count_guard&) = delete;

private:
  std::atomic<std::size_t>& count_;
};

} // namespace

void listen_on(tcp::acceptor& acceptor, const tcp::endpoint& endpoint) {
  error_code ec;
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
}

std::vector<tcp::endpoint> resolve_host(const std::string& host, std::uint16_t port,
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

struct server_runtime::impl {
  server_runtime_options options;
  server_hooks hooks;
  std::shared_ptr<spdlog::logger> logger;
  // Destroyed last, after the acceptor and the work guards that refer to them.
  std::vector<std::unique_ptr<worker_context>> contexts;
  std::vector<asio::executor_work_guard<asio::io_context::executor_type>> keep_running;
  std::optional<tcp::acceptor> acceptor;
  tcp::endpoint bound;

  std::mutex mutex;
  std::condition_variable changed;
  bool stop_requested = false;
  unsigned workers_finished = 0;
  std::atomic<std::size_t> sessions_alive{0};

  asio::awaitable<void> accept_connections();
  void start_session(std::size_t worker_index, tcp::socket socket, std::string peer);
  void begin_drain();
};

server_runtime::server_runtime(server_runtime_options options, server_hooks hooks,
                               std::shared_ptr<spdlog::logger> logger)
    : impl_(std::make_unique<impl>()) {
  // splice(2) and sendfile(2) into a socket the peer has closed raise SIGPIPE (they have no
  // MSG_NOSIGNAL); the servers take EPIPE as the write error it is, so the signal must not
  // end the process.
  ::signal(SIGPIPE, SIG_IGN);
  impl_->options = std::move(options);
  impl_->hooks = std::move(hooks);
  impl_->logger = std::move(logger);
  const unsigned threads = impl_->options.threads > 0
                               ? impl_->options.threads
                               : std::max(1u, std::thread::hardware_concurrency());
  for (unsigned i = 0; i < threads; ++i) {
    // One thread per io_context: what runs on a worker needs no lock.
    impl_->contexts.push_back(std::make_unique<worker_context>());
    impl_->keep_running.push_back(asio::make_work_guard(*impl_->contexts.back()));
  }
}

server_runtime::~server_runtime() = default;

std::size_t server_runtime::worker_count() const {
  return impl_->contexts.size();
}

asio::io_context& server_runtime::context(std::size_t worker_index) {
  return *impl_->contexts.at(worker_index);
}

tcp::endpoint server_runtime::bind(const std::string& host, std::uint16_t port) {
  const auto endpoints = resolve_host(host, port, "listen");
  auto& acceptor = impl_->acceptor.emplace(*impl_->contexts.front());
  listen_on(acceptor, endpoints.front());
  impl_->bound = acceptor.local_endpoint();
  return impl_->bound;
}

std::string server_runtime::listen_url(std::string_view scheme) const {
  return fmt::format("{}://{}", scheme, endpoint_text(impl_->bound));
}

asio::awaitable<void> server_runtime::impl::accept_connections() {
  std::size_t next = 0;
  for (;;) {
    const std::size_t target = next++ % contexts.size();
    error_code ec;
    asio::any_io_executor target_executor = contexts[target]->get_executor();
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

void server_runtime::impl::start_session(std::size_t worker_index, tcp::socket socket,
                                         std::string peer) {
  // The session starts on its own worker's thread: the caller's worker state has no locks.
  asio::co_spawn(
      *contexts[worker_index],
      [this, worker_index, socket = std::move(socket),
       peer = std::move(peer)]() mutable -> asio::awaitable<void> {
        const session_count_guard counted(sessions_alive);
        co_await hooks.start_session(worker_index, std::move(socket), std::move(peer));
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

void server_runtime::impl::begin_drain() {
  asio::post(*contexts.front(), [this] {
    error_code ignored;
    acceptor->close(ignored);
  });
  for (std::size_t i = 0; i < contexts.size(); ++i) {
    asio::post(*contexts[i], [this, i] { hooks.on_drain(i); });
  }
  keep_running.clear();
}

void server_runtime::run() {
  auto& self = *impl_;
  if (!self.acceptor) {
    throw std::logic_error("server_runtime::run before bind");
  }
  asio::co_spawn(*self.contexts.front(), self.accept_connections(), asio::detached);
  std::vector<std::thread> threads;
  for (auto& context : self.contexts) {
    threads.emplace_back([&self, context = context.get()] {
      context->run();
      std::lock_guard lock(self.mutex);
      ++self.workers_finished;
      self.changed.notify_all();
    });
  }
  std::unique_lock lock(self.mutex);
  self.changed.wait(lock, [&] { return self.stop_requested; });
  lock.unlock();
  self.logger->info("stopping: no new connections, waiting up to {} ms for {} in flight",
                    self.options.drain_timeout.count(), self.options.in_flight);
  self.begin_drain();
  lock.lock();
  const bool drained = self.changed.wait_for(lock, self.options.drain_timeout, [&] {
    return self.workers_finished == self.contexts.size();
  });
  lock.unlock();
  if (!drained) {
    for (auto& context : self.contexts) {
      context->stop();
    }
  }
  for (auto& thread : threads) {
    thread.join();
  }
  // The sessions still alive are suspended in their contexts: destroyed here, on this thread,
  // while the caller's worker state they refer to is alive (run() returns before it goes).
  const std::size_t cut = self.sessions_alive.load();
  for (auto& context : self.contexts) {
    context->discard_pending_work();
  }
  if (drained) {
    self.logger->info("drain done: 0 {} cut, every connection ended in time",
                      self.options.in_flight);
  } else {
    self.logger->warn("drain timeout of {} ms reached: {} {} cut, their connections closed",
                      self.options.drain_timeout.count(), cut, self.options.in_flight);
  }
}

void server_runtime::request_stop() {
  std::lock_guard lock(impl_->mutex);
  impl_->stop_requested = true;
  impl_->changed.notify_all();
}

} // namespace s3fault::runtime
