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

std::size_t chunked_framing::fail(std::size_t consumed, const char* why) {
  state_ = state::failed;
  error_ = why;
  return consumed;
}

std::size_t chunked_framing::scan(std::string_view bytes) {
  std::size_t i = 0;
  while (i < bytes.size()) {
    const char c = bytes[i];
    switch (state_) {
    case state::size: {
      const int digit = hex_value(c);
      if (digit >= 0) {
        if (++size_digits_ > max_size_digits) {
          return fail(i, "chunk size too large");
        }
        chunk_size_ = chunk_size_ * 16 + static_cast<std::uint64_t>(digit);
        ++i;
        break;
      }
      if (size_digits_ == 0) {
        return fail(i, "chunk size is not a hex number");
      }
      state_ = state::extension;
      line_bytes_ = 0;
      break; // re-read c in the extension state
    }
    case state::extension:
      if (c == '\r') {
        state_ = state::size_lf;
      } else if (++line_bytes_ > max_extension_bytes) {
        return fail(i, "chunk extension too long");
      } else if (line_bytes_ == 1 && c != ';' && c != ' ' && c != '\t') {
        return fail(i, "unexpected character after chunk size");
      } else if (is_control(c)) {
        return fail(i, "control character in a chunk extension");
      }
      ++i;
      break;
    case state::size_lf:
      if (c != '\n') {
        return fail(i, "chunk size line not ended by CRLF");
      }
      ++i;
      payload_bytes_ += chunk_size_;
      remaining_ = chunk_size_;
      last_chunk_ = chunk_size_ == 0;
      chunk_size_ = 0;
      size_digits_ = 0;
      state_ = last_chunk_ ? state::trailer_start : state::data;
      break;
    case state::data: {
      const std::uint64_t take = std::min<std::uint64_t>(remaining_, bytes.size() - i);
      remaining_ -= take;
      i += static_cast<std::size_t>(take);
      if (remaining_ == 0) {
        state_ = state::data_cr;
      }
      break;
    }
    case state::data_cr:
      if (c != '\r') {
        return fail(i, "chunk data not followed by CRLF");
      }
      ++i;
      state_ = state::data_lf;
      break;
    case state::data_lf:
      if (c != '\n') {
        return fail(i, "chunk data not followed by CRLF");
      }
      ++i;
      state_ = state::size;
      break;
    case state::trailer_start:
      if (c == '\r') {
        state_ = state::final_lf;
        ++i;
      } else if (c == ':') {
        return fail(i, "trailer field without a name");
      } else {
        state_ = state::trailer_line;
        trailer_colon_ = false;
      }
      break;
    case state::trailer_line:
      if (++trailer_bytes_ > max_trailer_bytes) {
        return fail(i, "trailer section too large");
      }
      if (c == '\r') {
        if (!trailer_colon_) {
          return fail(i, "trailer line is not a field (no ':')");
        }
        state_ = state::trailer_lf;
      } else if (is_control(c)) {
        return fail(i, "control character in a trailer field");
      }
      trailer_colon_ = trailer_colon_ || c == ':';
      ++i;
      break;
    case state::trailer_lf:
      if (c != '\n') {
        return fail(i, "trailer line not ended by CRLF");
      }
      ++i;
      state_ = state::trailer_start;
      break;
    case state::final_lf:
      if (c != '\n') {
        return fail(i, "chunked body not ended by CRLF");
      }
      ++i;
      state_ = state::done;
      return i;
    case state::done:
    case state::failed:
      return i;
    }
  }
  return i;
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
