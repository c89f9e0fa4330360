#pragma once
// Short names for the Asio/Beast types the proxy uses everywhere.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/system/error_code.hpp>

#include <chrono>

namespace s3fault::proxy {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;
using clock = std::chrono::steady_clock;

/// Completion token for coroutines: errors come back in `ec` instead of as exceptions, so that
/// traffic errors are values (docs/design.md rule 4).
inline auto use_ec(error_code& ec) {
  return asio::redirect_error(asio::use_awaitable, ec);
}

} // namespace s3fault::proxy
