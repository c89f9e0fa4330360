#include "proxy/splice_relay.hpp"

#include "runtime/socket_ready.hpp"

#include <cerrno>
#include <fcntl.h>
#include <unistd.h>

namespace s3fault::proxy {
namespace {

// Large enough that a 10 MiB body takes few round trips through the event loop; the kernel
// holds page references, not copies, so the size costs little memory.
constexpr int wanted_pipe_bytes = 1024 * 1024;

error_code errno_code(int value) {
  return {value, boost::system::system_category()};
}

} // namespace

splice_pipe::splice_pipe(int read_fd, int write_fd, std::size_t capacity)
    : fds_{read_fd, write_fd}, capacity_(capacity) {}

splice_pipe::~splice_pipe() {
  ::close(fds_[0]);
  ::close(fds_[1]);
}

std::unique_ptr<splice_pipe> splice_pipe::open() {
  int fds[2];
  if (::pipe2(fds, O_NONBLOCK | O_CLOEXEC) != 0) {
    return nullptr;
  }
  // The pipe keeps its default size (64 KiB) when a larger one is refused (pipe-max-size).
  const int size = ::fcntl(fds[1], F_SETPIPE_SZ, wanted_pipe_bytes);
  const int capacity = size > 0 ? size : ::fcntl(fds[1], F_GETPIPE_SZ);
  return std::unique_ptr<splice_pipe>(
      new splice_pipe(fds[0], fds[1], static_cast<std::size_t>(capacity > 0 ? capacity : 65536)));
}

std::unique_ptr<splice_pipe> splice_pipe_pool::take() {
  if (free_.empty()) {
    return splice_pipe::open();
  }
  auto pipe = std::move(free_.back());
  free_.pop_back();
  return pipe;
}

void splice_pipe_pool::give_back(std::unique_ptr<splice_pipe> pipe) {
  if (pipe && pipe->held == 0 && free_.size() < max_idle) {
    free_.push_back(std::move(pipe));
  }
}

asio::awaitable<splice_outcome> splice_body(tcp::socket& from, tcp::socket& to,
                                            std::uint64_t length, splice_pipe& pipe,
                                            clock::duration io_timeout,
                                            std::optional<clock::time_point> deadline) {
  splice_outcome outcome;
  error_code ec;
  from.native_non_blocking(true, ec);
  to.native_non_blocking(true, ec);
  auto next_timeout = [&]() -> std::optional<clock::duration> {
    if (!deadline) {
      return io_timeout;
    }
    const auto left = *deadline - clock::now();
    if (left <= clock::duration::zero()) {
      return std::nullopt;
    }
    return std::min<clock::duration>(io_timeout, left);
  };
  while (outcome.bytes < length) {
    // Fill the pipe while the store (or client) has bytes ready.
    if (outcome.taken < length && pipe.held < pipe.capacity()) {
      const auto want = static_cast<std::size_t>(
          std::min<std::uint64_t>(length - outcome.taken, pipe.capacity() - pipe.held));
      const ssize_t n = ::splice(from.native_handle(), nullptr, pipe.write_end(), nullptr, want,
                                 SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
      if (n > 0) {
        outcome.taken += static_cast<std::size_t>(n);
        pipe.held += static_cast<std::size_t>(n);
      } else if (n == 0) {
        outcome.read_error = asio::error::eof; // the sender closed before the body's end
        co_return outcome;
      } else if (errno == EINTR) {
        continue;
      } else if (errno != EAGAIN) {
        outcome.read_error = errno_code(errno);
        co_return outcome;
      } else if (pipe.held == 0) {
        const auto timeout = next_timeout();
        outcome.read_error =
            timeout ? co_await runtime::wait_ready(from, tcp::socket::wait_read, *timeout)
                    : error_code(asio::error::timed_out);
        if (outcome.read_error) {
          co_return outcome;
        }
        continue;
      }
    }
    // Drain the pipe into the receiver.
    if (pipe.held > 0) {
      const ssize_t n = ::splice(pipe.read_end(), nullptr, to.native_handle(), nullptr, pipe.held,
                                 SPLICE_F_MOVE | SPLICE_F_NONBLOCK |
                                     (outcome.taken < length ? SPLICE_F_MORE : 0));
      if (n > 0) {
        pipe.held -= static_cast<std::size_t>(n);
        outcome.bytes += static_cast<std::size_t>(n);
      } else if (n < 0 && errno == EINTR) {
        continue;
      } else if (n < 0 && errno == EAGAIN) {
        const auto timeout = next_timeout();
        outcome.write_error =
            timeout ? co_await runtime::wait_ready(to, tcp::socket::wait_write, *timeout)
                    : error_code(asio::error::timed_out);
        if (outcome.write_error) {
          co_return outcome;
        }
      } else {
        outcome.write_error = n < 0 ? errno_code(errno) : asio::error::broken_pipe;
        co_return outcome;
      }
    }
  }
  co_return outcome;
}

} // namespace s3fault::proxy
