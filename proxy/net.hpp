#pragma once
// Short names for the Asio/Beast types the proxy uses everywhere.
#include <boost/asio/awaitable.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/redirect_error.hpp>
#include <boost/asio/use_awaitable.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/system/error_code.hpp>

#include <algorithm>
#include <chrono>
#include <optional>

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

/// A deadline ran out: Asio's own or a Beast stream's.
inline bool is_timeout(const error_code& ec) {
  return ec == asio::error::timed_out || ec == boost::beast::error::timeout;
}

/// The wait allowed for one I/O operation: `io_timeout`, shortened to what is left before
/// `deadline` when there is one; nullopt once the deadline has passed.
inline std::optional<clock::duration> io_wait_limit(clock::duration io_timeout,
                                                    std::optional<clock::time_point> deadline) {
  if (!deadline) {
    return io_timeout;
  }
  const auto left = *deadline - clock::now();
  if (left <= clock::duration::zero()) {
    return std::nullopt;
  }
  return std::min<clock::duration>(io_timeout, left);
}

inline double ms_between(clock::time_point from, clock::time_point to) {
  return std::chrono::duration<double, std::milli>(to - from).count();
}

} // namespace s3fault::proxy
