#include "runtime/socket_ready.hpp"

#include <boost/asio/redirect_error.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <memory>

namespace s3fault::runtime {

namespace asio = boost::asio;
using error_code = boost::system::error_code;

asio::awaitable<error_code> wait_ready(asio::ip::tcp::socket& socket,
                                       asio::ip::tcp::socket::wait_type what,
                                       std::chrono::steady_clock::duration timeout) {
  auto timer_fired = std::make_shared<bool>(false);
  asio::steady_timer timer(socket.get_executor(), timeout);
  timer.async_wait([&socket, timer_fired](const error_code& ec) {
    if (!ec) {
      *timer_fired = true;
      error_code ignored;
      socket.cancel(ignored);
    }
  });
  error_code ec;
  co_await socket.async_wait(what, asio::redirect_error(asio::use_awaitable, ec));
  timer.cancel();
  if (*timer_fired) {
    co_return asio::error::timed_out;
  }
  co_return ec;
}

} // namespace s3fault::runtime
