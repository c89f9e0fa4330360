#pragma once
// A one-shot event two coroutines on the same thread use to wait for each other (Boost 1.74 has
// no channels): `set()` wakes every waiter, `wait()` returns at once when already set.
#include "proxy/net.hpp"

#include <boost/asio/steady_timer.hpp>

namespace s3fault::proxy {

class completion_event {
public:
  explicit completion_event(const asio::any_io_executor& executor) : timer_(executor) {}

  void set() {
    set_ = true;
    timer_.cancel();
  }
  bool is_set() const { return set_; }

  asio::awaitable<void> wait() {
    while (!set_) {
      timer_.expires_at(asio::steady_timer::time_point::max());
      error_code ignored;
      co_await timer_.async_wait(use_ec(ignored));
    }
  }

  /// Returns true when the event was set within `timeout`.
  asio::awaitable<bool> wait_for(clock::duration timeout) {
    const auto deadline = clock::now() + timeout;
    while (!set_ && clock::now() < deadline) {
      timer_.expires_at(deadline);
      error_code ignored;
      co_await timer_.async_wait(use_ec(ignored));
    }
    co_return set_;
  }

private:
  asio::steady_timer timer_;
  bool set_ = false;
};

} // namespace s3fault::proxy
