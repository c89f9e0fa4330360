#pragma once
// The zero-copy fast path of the body relay: when no rule touches a body and both connections
// are plain TCP, its bytes go socket -> pipe -> socket inside the kernel (splice(2)), never
// through user space.
//
//   from socket ──splice──> pipe (1 MiB) ──splice──> to socket
//
// A worker keeps its pipes between bodies; a pipe that still holds bytes (an error mid-body) is
// closed instead of kept, so the next body never sees another's bytes.
#include "proxy/net.hpp"

#include <memory>
#include <optional>
#include <vector>

namespace s3fault::proxy {

/// A non-blocking pipe for splice(2).
class splice_pipe {
public:
  /// nullptr when the kernel refuses a pipe (the caller then copies through user space).
  static std::unique_ptr<splice_pipe> open();
  ~splice_pipe();
  splice_pipe(const splice_pipe&) = delete;
  splice_pipe& operator=(const splice_pipe&) = delete;

  int read_end() const { return fds_[0]; }
  int write_end() const { return fds_[1]; }
  std::size_t capacity() const { return capacity_; }
  std::size_t held = 0; // bytes in the pipe now

private:
  splice_pipe(int read_fd, int write_fd, std::size_t capacity);
  int fds_[2];
  std::size_t capacity_;
};

/// The pipes of one worker (no lock: one thread uses it).
class splice_pipe_pool {
public:
  /// A pipe, or nullptr when none can be had.
  std::unique_ptr<splice_pipe> take();
  /// Keeps an empty pipe for the next body (up to max_idle of them); a pipe with bytes in it,
  /// or one more than that, is closed.
  void give_back(std::unique_ptr<splice_pipe> pipe);

  /// Idle pipes kept per worker: enough for the bodies usually in flight, and a burst of
  /// concurrent transfers does not leave its descriptors behind.
  static constexpr std::size_t max_idle = 8;

private:
  std::vector<std::unique_ptr<splice_pipe>> free_;
};

struct splice_outcome {
  std::uint64_t taken = 0; // read from `from`
  std::uint64_t bytes = 0; // written to `to`
  error_code read_error;   // eof before `length` bytes counts
  error_code write_error;
};

/// Moves exactly `length` bytes from `from` to `to` through `pipe`. Each wait for the sockets
/// is bounded by `io_timeout` (and by `deadline`, when set); a wait that runs out is a
/// timed_out error on that side.
asio::awaitable<splice_outcome> splice_body(tcp::socket& from, tcp::socket& to,
                                            std::uint64_t length, splice_pipe& pipe,
                                            clock::duration io_timeout,
                                            std::optional<clock::time_point> deadline);

} // namespace s3fault::proxy
