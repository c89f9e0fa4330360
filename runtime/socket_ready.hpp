#pragma once
// Waiting for a socket that a system call outside asio (splice, sendfile) found full or empty:
// the proxy's splice relay and the origin's sendfile both wait here, with a deadline.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>

namespace s3fault::runtime {

/// Waits until `socket` is ready for `what`, at most `timeout`. A wait that runs out comes back
/// as asio's timed_out.
boost::asio::awaitable<boost::system::error_code>
wait_ready(boost::asio::ip::tcp::socket& socket, boost::asio::ip::tcp::socket::wait_type what,
           std::chrono::steady_clock::duration timeout);

} // namespace s3fault::runtime
