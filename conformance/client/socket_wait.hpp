#pragma once
// How a plain connection waits for its socket, and how a client pauses between retries. By
// default the calling thread blocks (poll, sleep). A thread that runs many clients as fibers on
// one event loop (fiber_loop.hpp) installs itself as the thread's waiter, so that a wait switches
// to another client whose socket is ready instead of to another thread.
#include <boost/system/error_code.hpp>

#include <chrono>

namespace s3fault::client {

class socket_waiter {
public:
  using time_point = std::chrono::steady_clock::time_point;
  virtual ~socket_waiter() = default;
  /// Waits until `fd` is ready for `events` (POLLIN, POLLOUT) or `deadline` passes (then beast's
  /// timeout error). Called only after the socket answered EAGAIN (or before its first use).
  virtual boost::system::error_code wait(int fd, short events, time_point deadline) = 0;
  /// `fd` is about to be closed; its number may come back for another socket.
  virtual void forget(int fd) = 0;
  /// Lets `duration` pass without the caller doing anything (a retry's backoff).
  virtual void pause(std::chrono::steady_clock::duration duration) = 0;
};

/// Installs `waiter` for the calling thread (nullptr: block in poll and sleep); returns the
/// previous one.
socket_waiter* set_thread_socket_waiter(socket_waiter* waiter);

/// The calling thread's waiter's wait, or poll(2) when it has none.
boost::system::error_code wait_for_socket(int fd, short events, socket_waiter::time_point deadline);
/// Tells the calling thread's waiter that `fd` is about to be closed.
void forget_socket(int fd);
/// The calling thread's waiter's pause, or a sleep.
void pause_for(std::chrono::steady_clock::duration duration);

/// poll(2) on `fd` until it is ready or `deadline` passes, blocking the thread.
boost::system::error_code poll_socket(int fd, short events, socket_waiter::time_point deadline);

} // namespace s3fault::client
