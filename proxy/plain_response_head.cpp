#include "proxy/plain_response_head.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/field.hpp>

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>

namespace s3fault::proxy {
namespace {

// Character classes of RFC 9110 5.6.2 (tchar) and 5.5 (field-vchar, obs-text), one table each.
constexpr std::array<bool, 256> make_token_table() {
  std::array<bool, 256> table{};
  for (int c = '0'; c <= '9'; ++c) {
    table[c] = true;
  }
  for (int c = 'a'; c <= 'z'; ++c) {
    table[c] = true;
    table[c - 'a' + 'A'] = true;
  }
  for (const char c : std::string_view("!#$%&'*+-.^_`|~")) {
    table[static_cast<unsigned char>(c)] = true;
  }
  return table;
}
constexpr std::array<bool, 256> make_text_table() {
  std::array<bool, 256> table{};
  table['\t'] = true;
  for (int c = ' '; c < 0x7f; ++c) {
    table[c] = true;
  }
  for (int c = 0x80; c <= 0xff; ++c) {
    table[c] = true;
  }
  return table;
}
constexpr auto token_chars = make_token_table();
constexpr auto text_chars = make_text_table();

/// Whether any of eight bytes is a control byte (under 0x20, or 0x7f). Bytes of 0x80 and up are
/// not (the ~word term leaves them out of both tests).
bool has_control_byte(const char* at) {
  constexpr std::uint64_t ones = 0x0101010101010101ULL;
  constexpr std::uint64_t highs = 0x8080808080808080ULL;
  std::uint64_t word;
  std::memcpy(&word, at, sizeof word);
  const std::uint64_t del = word ^ (ones * 0x7f); // a zero byte where `word` holds 0x7f
  return (((word - ones * 0x20) & ~word) | ((del - ones) & ~del)) & highs;
}

/// True when `text` has no control byte but HTAB (RFC 9110 5.5: field-vchar, SP, HTAB and
/// obs-text), checked eight bytes at a time: a head's values are most of its bytes. A tab, or a
/// text under eight bytes, is checked byte by byte.
bool is_field_text(std::string_view text) {
  bool clean = text.size() >= 8;
  for (std::size_t i = 0; clean && i + 8 <= text.size(); i += 8) {
    clean = !has_control_byte(text.data() + i);
  }
  if (clean && !has_control_byte(text.data() + text.size() - 8)) {
    return true; // the last eight bytes overlap the words before: the tail is covered
  }
  for (const char c : text) {
    if (!text_chars[static_cast<unsigned char>(c)]) {
      return false;
    }
  }
  return true;
}

/// ASCII case-insensitive equality of a token or field value with a literal of lower-case
/// letters and '-'. Setting bit 0x20 lowers a letter and keeps '-'; no other character a token
/// or a field value may hold becomes either (CR would become '-', and neither holds CR).
bool equals_lower(std::string_view token, std::string_view lower) {
  if (token.size() != lower.size()) {
    return false;
  }
  for (std::size_t i = 0; i < token.size(); ++i) {
    if ((token[i] | 0x20) != lower[i]) {
      return false;
    }
  }
  return true;
}

/// The role a field name plays for the proxy.
enum class field_role { other, content_length, connection, declined };

field_role role_of(std::string_view name) {
  if (equals_lower(name, "content-length")) {
    return field_role::content_length;
  }
  if (equals_lower(name, "connection")) {
    return field_role::connection;
  }
  if (equals_lower(name, "transfer-encoding")) {
    return field_role::declined; // chunked: Beast's to read
  }
  for (const http::field field : hop_by_hop_fields) {
    const auto known = http::to_string(field);
    if (name.size() == known.size() &&
        boost::beast::iequals(boost::beast::string_view(name.data(), name.size()), known)) {
      return field_role::declined; // other hop-by-hop fields are Beast's path's to drop
    }
  }
  return field_role::other;
}

std::optional<std::uint64_t> parse_length(std::string_view digits) {
  if (digits.empty() || digits.size() > 18) {
    return std::nullopt; // 18 digits cannot overflow; longer ones go to Beast
  }
  std::uint64_t value = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') {
      return std::nullopt;
    }
    value = value * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return value;
}

/// "HTTP/1.1 DDD reason": the status, or nullopt. 1xx (interim), codes outside 200..599 and an
/// empty reason (Beast writes the registered one instead) go to Beast.
std::optional<unsigned> status_of(std::string_view line) {
  constexpr std::string_view version = "HTTP/1.1 ";
  if (line.size() < version.size() + 5 || line.substr(0, version.size()) != version ||
      line[version.size() + 3] != ' ') {
    return std::nullopt;
  }
  unsigned status = 0;
  for (std::size_t i = version.size(); i < version.size() + 3; ++i) {
    if (line[i] < '0' || line[i] > '9') {
      return std::nullopt;
    }
    status = status * 10 + static_cast<unsigned>(line[i] - '0');
  }
  if (status < 200 || status > 599 || !is_field_text(line.substr(version.size() + 4))) {
    return std::nullopt;
  }
  return status;
}

/// One field line without its CRLF, split at ": ". Plain only: a token name, one space, a value
/// that neither starts nor ends with white space (as Beast would write it back).
bool split_plain_field(std::string_view line, std::string_view& name, std::string_view& value) {
  std::size_t colon = 0;
  while (colon < line.size() && token_chars[static_cast<unsigned char>(line[colon])]) {
    ++colon;
  }
  if (colon == 0 || colon + 2 >= line.size() || line[colon] != ':' || line[colon + 1] != ' ') {
    return false;
  }
  name = std::string_view(line.data(), colon);
  value = std::string_view(line.data() + colon + 2, line.size() - colon - 2);
  const auto blank = [](char c) { return c == ' ' || c == '\t'; };
  return !blank(value.front()) && !blank(value.back()) && is_field_text(value);
}

/// The line starting at `from`, without its CRLF; nullopt when no line end is in `bytes` or the
/// line ends in a bare LF.
std::optional<std::string_view> line_at(std::string_view bytes, std::size_t from) {
  const void* found = std::memchr(bytes.data() + from, '\n', bytes.size() - from);
  if (found == nullptr) {
    return std::nullopt;
  }
  const auto end = static_cast<std::size_t>(static_cast<const char*>(found) - bytes.data());
  if (end == from || bytes[end - 1] != '\r') {
    return std::nullopt;
  }
  return bytes.substr(from, end - 1 - from);
}

/// Takes one field line: Content-Length counted (once), Connection understood and kept out of
/// `forwarded` (the proxy writes its own), anything Beast must follow refused.
bool take_plain_field(std::string_view line, plain_response_head& out,
                      std::optional<std::uint64_t>& content_length, bool& forwarded_as_is) {
  std::string_view name;
  std::string_view value;
  if (!split_plain_field(line, name, value)) {
    return false;
  }
  forwarded_as_is = true;
  switch (role_of(name)) {
  case field_role::declined:
    return false;
  case field_role::content_length:
    return !content_length && (content_length = parse_length(value));
  case field_role::connection:
    // Only the usual values: a Connection that names fields is Beast's to follow.
    forwarded_as_is = false;
    if (equals_lower(value, "close")) {
      out.keep_alive = false;
      return true;
    }
    return equals_lower(value, "keep-alive");
  case field_role::other:
    return true;
  }
  return true;
}

/// Reads the field lines from `at` to the blank line, which `at` is left at; the forwarded ones
/// are copied to out.forwarded.
bool read_plain_fields(std::string_view bytes, std::size_t& at, plain_response_head& out,
                       std::optional<std::uint64_t>& content_length) {
  std::size_t kept_from = 0; // the forwarded bytes not yet copied start here
  for (;;) {
    const auto line = line_at(bytes, at);
    if (!line) {
      return false;
    }
    if (line->empty()) {
      out.forwarded.append(bytes.substr(kept_from, at - kept_from));
      return true;
    }
    bool forwarded_as_is = true;
    if (!take_plain_field(*line, out, content_length, forwarded_as_is)) {
      return false;
    }
    if (!forwarded_as_is) {
      out.forwarded.append(bytes.substr(kept_from, at - kept_from));
      kept_from = at + line->size() + 2;
    }
    at += line->size() + 2;
  }
}

} // namespace

bool read_plain_response_head(std::string_view bytes, bool head_request, std::size_t max_head_bytes,
                              plain_response_head& out) {
  bytes = bytes.substr(0, std::min(bytes.size(), max_head_bytes));
  const auto status_line = line_at(bytes, 0);
  const auto status = status_line ? status_of(*status_line) : std::nullopt;
  if (!status) {
    return false;
  }
  out.status = *status;
  out.keep_alive = true;
  out.forwarded.clear();
  out.forwarded.reserve(bytes.size() + 32);
  std::optional<std::uint64_t> content_length;
  std::size_t at = status_line->size() + 2;
  if (!read_plain_fields(bytes, at, out, content_length)) {
    return false;
  }
  out.size = at + 2;
  const bool no_body = out.status == 204 || out.status == 304;
  if (head_request || no_body) {
    // A 204 that announces a length is corrected by match_framing_to_status: Beast's path.
    out.framing = {};
    return !(out.status == 204 && content_length);
  }
  if (!content_length) {
    return false; // a body until the store closes: rare, and Beast's to read
  }
  out.framing = {body_framing::kind::length, *content_length};
  return true;
}

std::string finish_response_head(plain_response_head& head, bool close_client) {
  std::string out = std::move(head.forwarded);
  if (close_client) {
    out.append("Connection: close\r\n");
  }
  out.append("\r\n");
  return out;
}

} // namespace s3fault::proxy
