#pragma once
// Follows the chunked transfer coding (RFC 9112 section 7.1) of a body as its bytes pass through,
// without changing them, to know where the message ends. The proxy relays chunked bodies byte
// for byte (chunk sizes, extensions and trailers included), so it must not decode and re-encode.
// What it refuses, a lenient parser behind the proxy could read differently: a size that is not
// hex or is too long, a control byte (a bare LF, a NUL) in an extension or a trailer, a trailer
// line that is not a field, lines over their bounds.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace s3fault::proxy {

class chunked_framing {
public:
  /// Scans the next bytes of the body. Returns how many of them belong to this body: fewer than
  /// `bytes.size()` only when the body ended (then `done()`), or on an error (then `failed()`).
  std::size_t scan(std::string_view bytes);

  bool done() const { return state_ == state::done; }
  bool failed() const { return state_ == state::failed; }
  /// Why the framing was rejected, for logs and error responses.
  const std::string& error() const { return error_; }
  /// Sum of the chunk sizes seen so far (the decoded payload length).
  std::uint64_t payload_bytes() const { return payload_bytes_; }

private:
  enum class state {
    size,          // hex digits of a chunk size
    extension,     // after the size: optional ";ext" until CR
    size_lf,       // LF that ends the chunk-size line
    data,          // chunk payload
    data_cr,       // CR after the payload
    data_lf,       // LF after the payload
    trailer_start, // first byte of a trailer line, or CR of the final empty line
    trailer_line,  // a trailer field line until CR
    trailer_lf,    // LF that ends a trailer line
    final_lf,      // LF of the final empty line
    done,
    failed,
  };

  // Each reads the body at the scan's position and returns how many bytes it took: 0 when the
  // byte is read again in the new state, or on an error (then failed()).
  std::size_t step(char c);
  std::size_t expect(char c, char wanted, state next, const char* why);
  std::size_t size_char(char c);
  std::size_t extension_char(char c);
  std::size_t size_line_end(char c);
  std::size_t take_data(std::size_t available);
  std::size_t trailer_start_char(char c);
  std::size_t trailer_char(char c);
  std::size_t fail(const char* why);

  state state_ = state::size;
  std::uint64_t chunk_size_ = 0;
  std::uint64_t remaining_ = 0;
  std::uint64_t payload_bytes_ = 0;
  int size_digits_ = 0;
  std::size_t line_bytes_ = 0;    // bytes of the current extension or trailer line
  std::size_t trailer_bytes_ = 0; // bytes of all trailers
  bool last_chunk_ = false;
  bool trailer_colon_ = false; // the current trailer line has had its ':'
  std::string error_;
};

/// The payload of a whole chunked body that chunked_framing accepted (`raw` ends where scan()
/// said the body ends): the chunks' data joined; sizes, extensions and trailers dropped.
std::string chunked_payload(std::string_view raw);

} // namespace s3fault::proxy
