#include "proxy/chunked_framing.hpp"

#include <algorithm>

namespace s3fault::proxy {
namespace {

// Bounds that keep a hostile peer from making the proxy scan forever for a line end.
constexpr std::size_t max_extension_bytes = 4096;
constexpr std::size_t max_trailer_bytes = 16 * 1024;
constexpr int max_size_digits = 15; // 15 hex digits stay well inside uint64

int hex_value(char c) {
  if (c >= '0' && c <= '9') {
    return c - '0';
  }
  if (c >= 'a' && c <= 'f') {
    return c - 'a' + 10;
  }
  if (c >= 'A' && c <= 'F') {
    return c - 'A' + 10;
  }
  return -1;
}

// RFC 9112 allows no control byte but HTAB in an extension or a field line; a bare LF there is
// what request smuggling through lenient parsers is made of.
bool is_control(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return (byte < 0x20 && c != '\t') || byte == 0x7f;
}

} // namespace

std::size_t chunked_framing::fail(const char* why) {
  state_ = state::failed;
  error_ = why;
  return 0;
}

std::size_t chunked_framing::scan(std::string_view bytes) {
  std::size_t i = 0;
  while (i < bytes.size() && state_ != state::done && state_ != state::failed) {
    i += state_ == state::data ? take_data(bytes.size() - i) : step(bytes[i]);
  }
  return i;
}

std::size_t chunked_framing::step(char c) {
  switch (state_) {
  case state::size:
    return size_char(c);
  case state::extension:
    return extension_char(c);
  case state::size_lf:
    return size_line_end(c);
  case state::data_cr:
    return expect(c, '\r', state::data_lf, "chunk data not followed by CRLF");
  case state::data_lf:
    return expect(c, '\n', state::size, "chunk data not followed by CRLF");
  case state::trailer_start:
    return trailer_start_char(c);
  case state::trailer_line:
    return trailer_char(c);
  case state::trailer_lf:
    return expect(c, '\n', state::trailer_start, "trailer line not ended by CRLF");
  case state::final_lf:
    return expect(c, '\n', state::done, "chunked body not ended by CRLF");
  case state::data:
  case state::done:
  case state::failed:
    break; // scan() handles these
  }
  return 0;
}

std::size_t chunked_framing::expect(char c, char wanted, state next, const char* why) {
  if (c != wanted) {
    return fail(why);
  }
  state_ = next;
  return 1;
}

std::size_t chunked_framing::size_char(char c) {
  const int digit = hex_value(c);
  if (digit >= 0) {
    if (++size_digits_ > max_size_digits) {
      return fail("chunk size too large");
    }
    chunk_size_ = chunk_size_ * 16 + static_cast<std::uint64_t>(digit);
    return 1;
  }
  if (size_digits_ == 0) {
    return fail("chunk size is not a hex number");
  }
  state_ = state::extension;
  line_bytes_ = 0;
  return 0; // c is read again, in the extension state
}

std::size_t chunked_framing::extension_char(char c) {
  if (c == '\r') {
    state_ = state::size_lf;
  } else if (++line_bytes_ > max_extension_bytes) {
    return fail("chunk extension too long");
  } else if (line_bytes_ == 1 && c != ';' && c != ' ' && c != '\t') {
    return fail("unexpected character after chunk size");
  } else if (is_control(c)) {
    return fail("control character in a chunk extension");
  }
  return 1;
}

std::size_t chunked_framing::size_line_end(char c) {
  if (c != '\n') {
    return fail("chunk size line not ended by CRLF");
  }
  payload_bytes_ += chunk_size_;
  remaining_ = chunk_size_;
  last_chunk_ = chunk_size_ == 0;
  chunk_size_ = 0;
  size_digits_ = 0;
  state_ = last_chunk_ ? state::trailer_start : state::data;
  return 1;
}

std::size_t chunked_framing::take_data(std::size_t available) {
  const std::uint64_t take = std::min<std::uint64_t>(remaining_, available);
  remaining_ -= take;
  if (remaining_ == 0) {
    state_ = state::data_cr;
  }
  return static_cast<std::size_t>(take);
}

std::size_t chunked_framing::trailer_start_char(char c) {
  if (c == '\r') {
    state_ = state::final_lf;
    return 1;
  }
  if (c == ':') {
    return fail("trailer field without a name");
  }
  state_ = state::trailer_line;
  trailer_colon_ = false;
  return 0; // c is read again, as the line's first byte
}

std::size_t chunked_framing::trailer_char(char c) {
  if (++trailer_bytes_ > max_trailer_bytes) {
    return fail("trailer section too large");
  }
  if (c == '\r') {
    if (!trailer_colon_) {
      return fail("trailer line is not a field (no ':')");
    }
    state_ = state::trailer_lf;
  } else if (is_control(c)) {
    return fail("control character in a trailer field");
  }
  trailer_colon_ = trailer_colon_ || c == ':';
  return 1;
}

std::string chunked_payload(std::string_view raw) {
  std::string payload;
  std::size_t at = 0;
  while (at < raw.size()) {
    std::uint64_t size = 0;
    for (int digit = 0; at < raw.size() && (digit = hex_value(raw[at])) >= 0; ++at) {
      size = size * 16 + static_cast<std::uint64_t>(digit);
    }
    const std::size_t line_end = raw.find("\r\n", at);
    if (size == 0 || line_end == std::string_view::npos) {
      break; // the last chunk: only trailers follow
    }
    at = line_end + 2;
    const std::size_t take =
        static_cast<std::size_t>(std::min<std::uint64_t>(size, raw.size() - at));
    payload.append(raw.substr(at, take));
    at += take + 2; // the CRLF after the data
  }
  return payload;
}

} // namespace s3fault::proxy
