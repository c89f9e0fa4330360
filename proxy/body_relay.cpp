#include "proxy/body_relay.hpp"

#include "proxy/chunked_framing.hpp"

#include <boost/asio/buffer.hpp>

#include <cstring>

namespace s3fault::proxy {
namespace {

// Where the body ends: how many of the next `available` bytes still belong to it.
class body_end_tracker {
public:
  explicit body_end_tracker(body_framing framing) : framing_(framing) {
    remaining_ = framing.length;
  }

  /// Upper bound for the next read, so a Content-Length body is never over-read.
  std::size_t read_limit(std::size_t scratch_size) const {
    if (framing_.how == body_framing::kind::length) {
      return static_cast<std::size_t>(std::min<std::uint64_t>(scratch_size, remaining_));
    }
    return scratch_size;
  }

  std::size_t accept(std::string_view bytes) {
    switch (framing_.how) {
    case body_framing::kind::length: {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(bytes.size(), remaining_));
      remaining_ -= n;
      return n;
    }
    case body_framing::kind::chunked:
      return chunked_.scan(bytes);
    case body_framing::kind::until_close:
      return bytes.size();
    case body_framing::kind::none:
      return 0;
    }
    return 0;
  }

  bool done() const {
    switch (framing_.how) {
    case body_framing::kind::length:
      return remaining_ == 0;
    case body_framing::kind::chunked:
      return chunked_.done();
    case body_framing::kind::until_close:
      return false; // ends only with EOF
    case body_framing::kind::none:
      return true;
    }
    return true;
  }

  const std::string* framing_error() const {
    return chunked_.failed() ? &chunked_.error() : nullptr;
  }
  bool ends_at_eof() const { return framing_.how == body_framing::kind::until_close; }

private:
  body_framing framing_;
  std::uint64_t remaining_ = 0;
  chunked_framing chunked_;
};

} // namespace

asio::awaitable<relay_outcome> relay_body(byte_stream& from, boost::beast::flat_buffer& from_buffer,
                                          byte_stream* to, body_framing framing,
                                          std::span<char> scratch, relay_options options) {
  relay_outcome outcome;
  body_end_tracker tracker(framing);
  // The per-operation timeout, shortened to what is left before the overall deadline.
  auto next_timeout = [&]() -> std::optional<clock::duration> {
    if (!options.deadline) {
      return options.io_timeout;
    }
    const auto left = *options.deadline - clock::now();
    if (left <= clock::duration::zero()) {
      return std::nullopt;
    }
    return std::min<clock::duration>(options.io_timeout, left);
  };

  auto forward = [&](std::string_view bytes) -> asio::awaitable<bool> {
    if (to == nullptr || outcome.write_error || bytes.empty()) {
      co_return true; // discarding, or draining after a write error
    }
    to->expires_after(options.io_timeout);
    co_await to->write_all(asio::buffer(bytes.data(), bytes.size()), outcome.write_error);
    if (outcome.write_error) {
      co_return options.drain_after_write_error;
    }
    outcome.bytes += bytes.size();
    co_return true;
  };

  // 1. Body bytes that arrived together with the head.
  if (from_buffer.size() > 0 && !tracker.done()) {
    const auto buffered = from_buffer.data();
    const std::string_view bytes(static_cast<const char*>(buffered.data()), buffered.size());
    const std::size_t n = tracker.accept(bytes);
    if (!co_await forward(bytes.substr(0, n))) {
      co_return outcome;
    }
    from_buffer.consume(n);
  }

  // 2. The rest, straight from the socket through the scratch buffer.
  while (!tracker.done()) {
    if (auto* why = tracker.framing_error()) {
      outcome.framing_error = *why;
      co_return outcome;
    }
    const auto timeout = next_timeout();
    if (!timeout) {
      outcome.read_error = asio::error::timed_out;
      co_return outcome;
    }
    from.expires_after(*timeout);
    error_code ec;
    const std::size_t n = co_await from.read_some(
        asio::buffer(scratch.data(), tracker.read_limit(scratch.size())), ec);
    if (ec) {
      if (ec == asio::error::eof && tracker.ends_at_eof()) {
        outcome.reached_end = true;
      } else {
        outcome.read_error = ec;
      }
      co_return outcome;
    }
    const std::string_view bytes(scratch.data(), n);
    const std::size_t used = tracker.accept(bytes);
    if (!co_await forward(bytes.substr(0, used))) {
      co_return outcome;
    }
    if (used < n && tracker.done()) {
      // Read past the end of a chunked body: keep the rest for the next message.
      const auto rest = bytes.substr(used);
      auto space = from_buffer.prepare(rest.size());
      std::memcpy(space.data(), rest.data(), rest.size());
      from_buffer.commit(rest.size());
    }
  }
  outcome.reached_end = true;
  co_return outcome;
}

} // namespace s3fault::proxy
