#pragma once
// Moves one message body from one stream to another, byte for byte, with bounded memory:
//
//   from_buffer (bytes read with the head) ─┐
//   from ──read_some(≤ scratch)──> scratch ─┴─> [framing: length | chunked scan | until EOF] ──> to
//   from ──splice──> pipe ──splice──> to      (no filter, length framing, plain TCP both sides)
//
// The framing only decides where the body ends; it never changes a byte. Bytes read past the
// end of a chunked body (a pipelined message) are put back in from_buffer. read_whole_body
// instead gathers a body in memory (for document actions, which need all of it at once).
#include "faults/fault_action.hpp"
#include "proxy/byte_stream.hpp"
#include "proxy/http_head.hpp"
#include "proxy/splice_relay.hpp"

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace s3fault::proxy {

/// What happened while relaying a body.
struct relay_outcome {
  std::uint64_t bytes = 0;   // body bytes written to `to`
  error_code read_error;     // from `from` (eof before the end counts)
  error_code write_error;    // to `to`
  std::string framing_error; // malformed chunked framing
  bool reached_end = false;  // every byte of the body was read from `from`
  /// A fault filter ended the body early (close or reset the receiving connection).
  faults::body_step::ending ended_by_filter = faults::body_step::ending::none;

  bool complete() const { return reached_end && !write_error; }
};

struct relay_options {
  clock::duration io_timeout{};
  /// Give up (read_error = timed_out) when the whole body has not passed by then.
  std::optional<clock::time_point> deadline{};
  /// After a write error, keep reading (and dropping) the body to its end, so the sender is not
  /// cut off mid-body and can still read the answer it is owed.
  bool drain_after_write_error = false;
  /// Fault filters the body passes through on its way (empty: the plain byte-for-byte relay).
  /// A filter may change bytes in place, pause, drop the rest, or end the body early.
  std::vector<std::unique_ptr<faults::body_filter>>* filters = nullptr;
  /// With pipes, a body no filter touches that goes from plain TCP to plain TCP with a known
  /// length moves through the kernel (splice_relay.hpp) instead of through `scratch`.
  splice_pipe_pool* pipes = nullptr;
};

/// Relays the body from `from` to `to`; with `to` null, reads it to its end and drops it.
asio::awaitable<relay_outcome> relay_body(byte_stream& from, boost::beast::flat_buffer& from_buffer,
                                          byte_stream* to, body_framing framing,
                                          std::span<char> scratch, relay_options options);

/// What reading a whole body into memory gave (read_whole_body).
struct whole_body {
  enum class ending {
    complete,  // every byte of the body is in the buffer
    too_large, // more than the limit: the body was left to be relayed
    failed,    // the store failed or sent malformed chunked framing before the end
  };
  ending end = ending::failed;
  std::size_t wire_bytes = 0;  // with complete: the body's bytes at the front of the buffer
  std::string payload;         // with complete: the body, chunked coding removed
  bool ended_by_close = false; // a body delimited by the end of the connection: it ended
};

/// Reads the body that follows a head into `buffer`, behind the bytes already there, until the
/// whole body is in it or it holds more than `limit` of the body's bytes (framing included; a
/// Content-Length above the limit is refused before any read). Nothing is consumed: a body that
/// is not taken after all is relayed from the buffer by relay_body as it came.
///
///   store ──read_some──> buffer: [body bytes, as sent ........][next message?]
///                                 └─ wire_bytes ─┘──> payload (chunked coding removed)
asio::awaitable<whole_body> read_whole_body(byte_stream& from, boost::beast::flat_buffer& buffer,
                                            body_framing framing, std::uint64_t limit,
                                            clock::duration io_timeout);

} // namespace s3fault::proxy
