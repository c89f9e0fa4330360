#include "proxy/body_relay.hpp"

#include "proxy/chunked_framing.hpp"

#include <boost/asio/buffer.hpp>
#include <boost/asio/steady_timer.hpp>

#include <cstring>

namespace s3fault::proxy {
namespace {

// Below this, a body is copied: a few small reads cost less than moving pages through a pipe.
constexpr std::uint64_t splice_threshold = 64 * 1024;

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

  std::uint64_t remaining_length() const {
    return framing_.how == body_framing::kind::length ? remaining_ : 0;
  }
  /// Counts `n` bytes of a length-framed body that moved without passing through accept().
  void skip_length(std::uint64_t n) { remaining_ -= std::min(n, remaining_); }

  const std::string* framing_error() const {
    return chunked_.failed() ? &chunked_.error() : nullptr;
  }
  bool ends_at_eof() const { return framing_.how == body_framing::kind::until_close; }

private:
  body_framing framing_;
  std::uint64_t remaining_ = 0;
  chunked_framing chunked_;
};

// Per-filter progress through the body.
struct filter_progress {
  std::uint64_t offset = 0;
  bool complete = false; // the filter declared the body complete: later bytes are dropped
};

// Sends `bytes` through filters[level...] and then on with `write`. Returns false when the body
// must stop here: a write failed, or a filter ended it (recorded in `outcome`).
template <class Write>
asio::awaitable<bool>
write_through_filters(std::vector<std::unique_ptr<faults::body_filter>>& filters,
                      std::vector<filter_progress>& progress, std::size_t level,
                      std::span<char> bytes, Write& write, relay_outcome& outcome) {
  if (level == filters.size()) {
    co_return co_await write(std::string_view(bytes.data(), bytes.size()));
  }
  auto& filter = *filters[level];
  auto& state = progress[level];
  while (!bytes.empty() && !state.complete) {
    const faults::body_step step = filter.on_bytes(bytes, state.offset, clock::now());
    if (step.pause > clock::duration::zero()) {
      asio::steady_timer pause(co_await asio::this_coro::executor, step.pause);
      error_code ignored;
      co_await pause.async_wait(use_ec(ignored));
    }
    const std::size_t pass = std::min(step.pass, bytes.size());
    if (pass > 0 && !co_await write_through_filters(filters, progress, level + 1, bytes.first(pass),
                                                    write, outcome)) {
      co_return false;
    }
    state.offset += pass;
    bytes = bytes.subspan(pass);
    if (step.end != faults::body_step::ending::none) {
      outcome.ended_by_filter = step.end;
      co_return false;
    }
    if (step.body_complete) {
      state.complete = true; // a consistent truncation: the rest is read but never sent
    } else if (pass == 0 && step.pause <= clock::duration::zero()) {
      // A filter that neither passes nor waits would be offered the same bytes forever.
      state.complete = true;
    }
  }
  co_return true;
}

/// The fast path: the rest of a plain, length-framed body through the kernel. True when the
/// relay is over (its end or its error is in `outcome`); false when the rest goes through the
/// scratch buffer: no pipe was free, or the receiver went away and the rest is read and dropped
/// (drain_after_write_error). The caller has checked that the body can be spliced.
asio::awaitable<bool> splice_rest(byte_stream& from, byte_stream& to, body_end_tracker& tracker,
                                  const relay_options& options, relay_outcome& outcome) {
  auto pipe = options.pipes->take();
  if (!pipe) {
    co_return false;
  }
  const auto moved = co_await splice_body(from.socket(), to.socket(), tracker.remaining_length(),
                                          *pipe, options.io_timeout, options.deadline);
  options.pipes->give_back(std::move(pipe));
  outcome.bytes += moved.bytes;
  tracker.skip_length(moved.taken);
  outcome.read_error = moved.read_error;
  outcome.write_error = moved.write_error;
  if (moved.read_error || !moved.write_error || !options.drain_after_write_error) {
    outcome.reached_end = !moved.read_error && !moved.write_error;
    co_return true;
  }
  co_return false;
}

/// The rest of the body, straight from the socket through `scratch`, each piece handed to
/// `forward` (false from it: stop).
template <class Forward>
asio::awaitable<void> relay_from_socket(byte_stream& from, boost::beast::flat_buffer& from_buffer,
                                        body_end_tracker& tracker, std::span<char> scratch,
                                        const relay_options& options, Forward& forward,
                                        relay_outcome& outcome) {
  while (!tracker.done()) {
    if (auto* why = tracker.framing_error()) {
      outcome.framing_error = *why;
      co_return;
    }
    const auto timeout = io_wait_limit(options.io_timeout, options.deadline);
    if (!timeout) {
      outcome.read_error = asio::error::timed_out;
      co_return;
    }
    from.expires_after(*timeout);
    error_code ec;
    const std::size_t n = co_await from.read_some(
        asio::buffer(scratch.data(), tracker.read_limit(scratch.size())), ec);
    if (ec) {
      outcome.reached_end = ec == asio::error::eof && tracker.ends_at_eof();
      outcome.read_error = outcome.reached_end ? error_code{} : ec;
      co_return;
    }
    const std::size_t used = tracker.accept(std::string_view(scratch.data(), n));
    if (!co_await forward(scratch.first(used))) {
      co_return;
    }
    if (used < n && tracker.done()) {
      // Read past the end of a chunked body: keep the rest for the next message.
      auto space = from_buffer.prepare(n - used);
      std::memcpy(space.data(), scratch.data() + used, n - used);
      from_buffer.commit(n - used);
    }
  }
  outcome.reached_end = true;
}

} // namespace

asio::awaitable<relay_outcome> relay_body(byte_stream& from, boost::beast::flat_buffer& from_buffer,
                                          byte_stream* to, body_framing framing,
                                          std::span<char> scratch, relay_options options) {
  relay_outcome outcome;
  body_end_tracker tracker(framing);
  auto write = [&](std::string_view bytes) -> asio::awaitable<bool> {
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
  const bool filtered = options.filters != nullptr && !options.filters->empty();
  std::vector<filter_progress> progress(filtered ? options.filters->size() : 0);
  auto forward = [&](std::span<char> bytes) -> asio::awaitable<bool> {
    if (!filtered) {
      co_return co_await write(std::string_view(bytes.data(), bytes.size()));
    }
    if (bytes.empty()) {
      co_return true;
    }
    if (!co_await write_through_filters(*options.filters, progress, 0, bytes, write, outcome)) {
      if (outcome.ended_by_filter != faults::body_step::ending::none) {
        co_return false; // the connection is to be closed or reset now
      }
      co_return !outcome.write_error || options.drain_after_write_error;
    }
    co_return true;
  };

  // 1. Body bytes that arrived together with the head.
  if (from_buffer.size() > 0 && !tracker.done()) {
    const auto buffered = from_buffer.data();
    // The buffer is ours: filters may change its bytes in place (corruption).
    char* data = const_cast<char*>(static_cast<const char*>(buffered.data()));
    const std::size_t n = tracker.accept(std::string_view(data, buffered.size()));
    if (!co_await forward(std::span<char>(data, n))) {
      co_return outcome;
    }
    from_buffer.consume(n);
  }
  // 2. Through the kernel when nothing needs to see the bytes, 3. else through `scratch`.
  const bool can_splice = options.pipes != nullptr && to != nullptr && !filtered &&
                          !outcome.write_error && tracker.remaining_length() >= splice_threshold &&
                          from.splice_capable() && to->splice_capable();
  if (can_splice) {
    if (co_await splice_rest(from, *to, tracker, options, outcome)) {
      co_return outcome;
    }
  }
  co_await relay_from_socket(from, from_buffer, tracker, scratch, options, forward, outcome);
  co_return outcome;
}

asio::awaitable<whole_body> read_whole_body(byte_stream& from, boost::beast::flat_buffer& buffer,
                                            body_framing framing, std::uint64_t limit,
                                            clock::duration io_timeout) {
  constexpr std::size_t read_size = 64 * 1024;
  whole_body out;
  if (framing.how == body_framing::kind::length && framing.length > limit) {
    out.end = whole_body::ending::too_large;
    co_return out;
  }
  body_end_tracker tracker(framing);
  std::size_t taken = 0; // the buffer's bytes the tracker has seen, all of them the body's
  for (;;) {
    if (buffer.size() > taken && !tracker.done()) {
      const char* data = static_cast<const char*>(buffer.data().data());
      taken += tracker.accept(std::string_view(data + taken, buffer.size() - taken));
    }
    if (tracker.framing_error() != nullptr) {
      co_return out; // failed: relay_body meets the same framing and says what is wrong
    }
    if (taken > limit) {
      out.end = whole_body::ending::too_large;
      co_return out;
    }
    if (tracker.done()) {
      break;
    }
    from.expires_after(io_timeout);
    error_code ec;
    const std::size_t n =
        co_await from.read_some(buffer.prepare(tracker.read_limit(read_size)), ec);
    buffer.commit(n);
    if (ec == asio::error::eof && tracker.ends_at_eof()) {
      out.ended_by_close = true;
      break; // every byte read was taken (a body ended by close takes them all)
    }
    if (ec) {
      co_return out; // failed: relay_body reads on from the buffer and meets the same end
    }
  }
  out.end = whole_body::ending::complete;
  out.wire_bytes = taken;
  const std::string_view raw(static_cast<const char*>(buffer.data().data()), taken);
  out.payload =
      framing.how == body_framing::kind::chunked ? chunked_payload(raw) : std::string(raw);
  co_return out;
}

} // namespace s3fault::proxy
