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

namespace {

/// One body's move through a pipe: fill it from the sender while it has bytes ready, drain it
/// into the receiver, and wait on whichever side is not ready.
class splice_run {
public:
  splice_run(tcp::socket& from, tcp::socket& to, std::uint64_t length, splice_pipe& pipe,
             clock::duration io_timeout, std::optional<clock::time_point> deadline)
      : from_(from), to_(to), length_(length), pipe_(pipe), io_timeout_(io_timeout),
        deadline_(deadline) {}

  asio::awaitable<splice_outcome> run() {
    error_code ec;
    from_.native_non_blocking(true, ec);
    to_.native_non_blocking(true, ec);
    while (outcome_.bytes < length_) {
      const auto filled = co_await fill();
      if (filled == step::stop) {
        break;
      }
      if (filled == step::again) {
        continue;
      }
      if (!co_await drain()) {
        break;
      }
    }
    co_return outcome_;
  }

private:
  enum class step { drain, again, stop };

  /// Fills the pipe while the sender has bytes ready: drain next, try again, or stop (an error
  /// is in the outcome).
  asio::awaitable<step> fill() {
    if (outcome_.taken >= length_ || pipe_.held >= pipe_.capacity()) {
      co_return step::drain;
    }
    const auto want = static_cast<std::size_t>(
        std::min<std::uint64_t>(length_ - outcome_.taken, pipe_.capacity() - pipe_.held));
    const ssize_t n = ::splice(from_.native_handle(), nullptr, pipe_.write_end(), nullptr, want,
                               SPLICE_F_MOVE | SPLICE_F_NONBLOCK);
    if (n > 0) {
      outcome_.taken += static_cast<std::size_t>(n);
      pipe_.held += static_cast<std::size_t>(n);
      co_return step::drain;
    }
    if (n == 0) {
      outcome_.read_error = asio::error::eof; // the sender closed before the body's end
      co_return step::stop;
    }
    if (errno == EINTR) {
      co_return step::again;
    }
    if (errno != EAGAIN) {
      outcome_.read_error = errno_code(errno);
      co_return step::stop;
    }
    if (pipe_.held > 0) {
      co_return step::drain; // nothing to read yet, but something to write
    }
    outcome_.read_error = co_await wait(from_, tcp::socket::wait_read);
    co_return outcome_.read_error ? step::stop : step::again;
  }

  /// Drains the pipe into the receiver; false on an error (in the outcome).
  asio::awaitable<bool> drain() {
    if (pipe_.held == 0) {
      co_return true;
    }
    const ssize_t n = ::splice(pipe_.read_end(), nullptr, to_.native_handle(), nullptr, pipe_.held,
                               SPLICE_F_MOVE | SPLICE_F_NONBLOCK |
                                   (outcome_.taken < length_ ? SPLICE_F_MORE : 0));
    if (n > 0) {
      pipe_.held -= static_cast<std::size_t>(n);
      outcome_.bytes += static_cast<std::size_t>(n);
    } else if (n < 0 && errno == EINTR) {
      co_return true;
    } else if (n < 0 && errno == EAGAIN) {
      outcome_.write_error = co_await wait(to_, tcp::socket::wait_write);
    } else {
      outcome_.write_error = n < 0 ? errno_code(errno) : asio::error::broken_pipe;
    }
    co_return !outcome_.write_error;
  }

  asio::awaitable<error_code> wait(tcp::socket& socket, tcp::socket::wait_type what) {
    const auto timeout = io_wait_limit(io_timeout_, deadline_);
    if (!timeout) {
      co_return error_code(asio::error::timed_out);
    }
    co_return co_await runtime::wait_ready(socket, what, *timeout);
  }

  tcp::socket& from_;
  tcp::socket& to_;
  std::uint64_t length_;
  splice_pipe& pipe_;
  clock::duration io_timeout_;
  std::optional<clock::time_point> deadline_;
  splice_outcome outcome_;
};

} // namespace

asio::awaitable<splice_outcome> splice_body(tcp::socket& from, tcp::socket& to,
                                            std::uint64_t length, splice_pipe& pipe,
                                            clock::duration io_timeout,
                                            std::optional<clock::time_point> deadline) {
  splice_run relay(from, to, length, pipe, io_timeout, deadline);
  co_return co_await relay.run();
}

} // namespace s3fault::proxy
