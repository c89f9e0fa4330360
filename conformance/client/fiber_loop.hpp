#pragma once
// Many blocking-style clients on one thread. Each runs as a fiber with its own stack; when its
// socket would block, the fiber waits here (socket_wait.hpp) and the loop resumes another one
// whose socket epoll reported ready. The code of a client stays sequential, as with a thread
// per client, without a kernel thread switch per request: a bench worker at 64 in flight spent
// most of its time switching between 64 threads.
//
//   run() ── resume ──> fiber: send, recv ... EAGAIN ── wait(fd) ──┐
//     ^                                                             │ suspended
//     └── epoll_wait (edge-triggered) / deadline ── resume ─────────┘
//
// Single-threaded: spawn, run and every wait happen on the thread that calls run().
#include "conformance/client/socket_wait.hpp"

#include <cstddef>
#include <functional>
#include <memory>

namespace s3fault::client {

class fiber_loop final : public socket_waiter {
public:
  explicit fiber_loop(std::size_t stack_bytes = 512 * 1024);
  ~fiber_loop() override;
  fiber_loop(const fiber_loop&) = delete;
  fiber_loop& operator=(const fiber_loop&) = delete;

  /// Adds a fiber that runs `body`; it starts when run() runs.
  void spawn(std::function<void()> body);
  /// Runs every fiber to its end on the calling thread, this loop installed as the thread's
  /// socket waiter meanwhile. Rethrows the first exception a fiber let out (the other fibers
  /// still run to their end first).
  void run();

  boost::system::error_code wait(int fd, short events, time_point deadline) override;
  void forget(int fd) override;
  void pause(std::chrono::steady_clock::duration duration) override;

private:
  struct state;
  std::unique_ptr<state> state_;
};

} // namespace s3fault::client
