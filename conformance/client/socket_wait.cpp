#include "conformance/client/socket_wait.hpp"

#include <boost/beast/core/error.hpp>

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <thread>

namespace s3fault::client {
namespace {

thread_local socket_waiter* installed_waiter = nullptr;

} // namespace

socket_waiter* set_thread_socket_waiter(socket_waiter* waiter) {
  return std::exchange(installed_waiter, waiter);
}

boost::system::error_code poll_socket(int fd, short events, socket_waiter::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::ceil<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      return boost::beast::error::timeout;
    }
    pollfd ready{fd, events, 0};
    const int n =
        ::poll(&ready, 1, static_cast<int>(std::min<std::int64_t>(left.count(), 1 << 30)));
    if (n > 0) {
      return {};
    }
    if (n < 0 && errno != EINTR) {
      return {errno, boost::system::system_category()};
    }
  }
}

boost::system::error_code wait_for_socket(int fd, short events,
                                          socket_waiter::time_point deadline) {
  return installed_waiter != nullptr ? installed_waiter->wait(fd, events, deadline)
                                     : poll_socket(fd, events, deadline);
}

void forget_socket(int fd) {
  if (installed_waiter != nullptr) {
    installed_waiter->forget(fd);
  }
}

void pause_for(std::chrono::steady_clock::duration duration) {
  if (installed_waiter != nullptr) {
    installed_waiter->pause(duration);
  } else {
    std::this_thread::sleep_for(duration);
  }
}

} // namespace s3fault::client
