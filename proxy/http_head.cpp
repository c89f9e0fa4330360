#include "proxy/http_head.hpp"

#include "runtime/log_redaction.hpp"
#include "text/text.hpp"

#include <boost/beast/core/string.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/rfc7230.hpp>
#include <boost/beast/http/status.hpp>

#include <algorithm>
#include <array>

namespace s3fault::proxy {
namespace {

constexpr std::size_t head_read_size = 16 * 1024;

// Every comparison here is ASCII and locale-free (beast::iequals): boost::iequals consults
// std::locale for each character, which showed up in profiles of small requests.

/// Beast knows the hop-by-hop names, so the check compares enums.
bool is_hop_by_hop_field(http::field name) {
  return std::find(hop_by_hop_fields.begin(), hop_by_hop_fields.end(), name) !=
         hop_by_hop_fields.end();
}

/// Calls `visit(field)` for every field a proxy forwards, in order: all but the hop-by-hop ones
/// and those the Connection field names.
template <class Fields, class Visit>
void for_each_forwarded_field(const Fields& fields, Visit visit) {
  // Fields named in Connection are hop-by-hop too. They are collected once per message in one
  // pass over the list (the usual "keep-alive" and "close" name no field): a lookup per field
  // cost 10 % of a small exchange's instructions, and a lookup by name walks a tree of
  // case-insensitive comparisons.
  std::array<boost::beast::string_view, 8> named{};
  std::size_t named_count = 0;
  bool too_many_named = false;
  for (const auto& field : fields) {
    if (field.name() != http::field::connection ||
        boost::beast::iequals(field.value(), "keep-alive") ||
        boost::beast::iequals(field.value(), "close")) {
      continue; // the usual values, without parsing them as a token list
    }
    for (auto token : http::token_list(field.value())) {
      if (boost::beast::iequals(token, "keep-alive") || boost::beast::iequals(token, "close")) {
        continue;
      }
      if (named_count < named.size()) {
        named[named_count++] = token;
      } else {
        too_many_named = true;
      }
    }
  }
  auto named_in_connection = [&](boost::beast::string_view name) {
    for (std::size_t i = 0; i < named_count; ++i) {
      if (boost::beast::iequals(named[i], name)) {
        return true;
      }
    }
    if (too_many_named) {
      for (const auto& field : fields) {
        if (field.name() != http::field::connection) {
          continue;
        }
        for (auto token : http::token_list(field.value())) {
          if (boost::beast::iequals(token, name)) {
            return true;
          }
        }
      }
    }
    return false;
  };
  for (const auto& field : fields) {
    if (is_hop_by_hop_field(field.name()) ||
        (named_count > 0 && named_in_connection(field.name_string()))) {
      continue;
    }
    visit(field);
  }
}

std::string_view view(boost::beast::string_view text) {
  return {text.data(), text.size()};
}

/// Appends "Name: value\r\n". Beast keeps a field as exactly those bytes in one block, so that
/// block goes in one copy; the pieces are the fallback should a Beast version lay it out
/// otherwise.
template <class Field> void append_field(std::string& out, const Field& field) {
  const auto name = field.name_string();
  const auto value = field.value();
  const char* line = name.data();
  const std::size_t line_size = name.size() + 2 + value.size() + 2;
  if (value.data() == line + name.size() + 2 && std::string_view(line + name.size(), 2) == ": " &&
      std::string_view(value.data() + value.size(), 2) == "\r\n") {
    out.append(line, line_size);
    return;
  }
  out.append(view(name));
  out.append(std::string_view(": "));
  out.append(view(value));
  out.append(std::string_view("\r\n"));
}

template <class Fields> void append_fields(std::string& out, const Fields& fields) {
  for_each_forwarded_field(fields, [&](const auto& field) { append_field(out, field); });
}

/// head_read::why for a head the parser refused: the framing conflict named, when that is it.
std::string why_head_refused(const error_code& ec, std::string_view head_text) {
  const bool framing_error =
      ec == http::error::bad_transfer_encoding || ec == http::error::bad_content_length;
  const auto head = head_text.substr(0, head_text.find("\r\n\r\n"));
  if (framing_error && !field_in_head_text(head, "Content-Length").empty() &&
      !field_in_head_text(head, "Transfer-Encoding").empty()) {
    return std::string(both_framings_refusal);
  }
  return {};
}

void expect_first_byte(byte_stream& stream, head_deadlines deadlines) {
  if (deadlines.first_byte == no_first_byte_deadline) {
    stream.expires_never();
  } else {
    stream.expires_after(deadlines.first_byte);
  }
}

} // namespace

asio::awaitable<head_read> read_head_start(byte_stream& stream, boost::beast::flat_buffer& buffer,
                                           head_deadlines deadlines) {
  head_read result;
  if (buffer.size() == 0) {
    expect_first_byte(stream, deadlines);
    error_code ec;
    const std::size_t n = co_await stream.read_some(buffer.prepare(head_read_size), ec);
    buffer.commit(n);
    result.ec = ec; // no byte came: an end of stream is a close between messages
  }
  result.got_bytes = buffer.size() > 0;
  co_return result;
}

template <class Parser>
asio::awaitable<head_read> read_head(byte_stream& stream, boost::beast::flat_buffer& buffer,
                                     Parser& parser, head_deadlines deadlines) {
  head_read result;
  std::optional<clock::time_point> head_deadline;
  for (;;) {
    if (buffer.size() > 0) {
      result.got_bytes = true;
      error_code ec;
      const std::size_t used = parser.put(buffer.data(), ec);
      if (ec && ec != http::error::need_more) {
        const auto bytes = buffer.data(); // the head as read, before the parser's share goes
        result.why = why_head_refused(ec, {static_cast<const char*>(bytes.data()), bytes.size()});
      }
      buffer.consume(used);
      result.bytes += used;
      if (ec != http::error::need_more) {
        result.ec = ec;
        co_return result;
      }
      if (parser.is_header_done()) {
        co_return result;
      }
    }
    if (result.got_bytes && !head_deadline) {
      head_deadline = clock::now() + deadlines.whole_head;
    }
    const auto now = clock::now();
    if (head_deadline && now >= *head_deadline) {
      result.ec = asio::error::timed_out;
      co_return result;
    }
    if (head_deadline) {
      stream.expires_after(*head_deadline - now);
    } else {
      expect_first_byte(stream, deadlines);
    }
    error_code ec;
    const std::size_t n = co_await stream.read_some(buffer.prepare(head_read_size), ec);
    buffer.commit(n);
    if (ec) {
      if (ec == asio::error::eof && result.got_bytes) {
        ec = http::error::partial_message;
      }
      result.ec = ec;
      co_return result;
    }
  }
}

template asio::awaitable<head_read> read_head(byte_stream&, boost::beast::flat_buffer&,
                                              request_parser&, head_deadlines);
template asio::awaitable<head_read> read_head(byte_stream&, boost::beast::flat_buffer&,
                                              response_parser&, head_deadlines);

std::optional<body_framing> request_body_framing(const request_parser& parser, std::string& why) {
  const auto& head = parser.get();
  const bool has_te = head.find(http::field::transfer_encoding) != head.end();
  const bool has_cl = head.find(http::field::content_length) != head.end();
  if (has_te && has_cl) {
    why = both_framings_refusal;
    return std::nullopt;
  }
  if (has_te) {
    if (!parser.chunked()) {
      why = "Transfer-Encoding without chunked as the last coding";
      return std::nullopt;
    }
    return body_framing{body_framing::kind::chunked, 0};
  }
  if (auto length = parser.content_length()) {
    return body_framing{body_framing::kind::length, *length};
  }
  return body_framing{};
}

bool status_forbids_body(unsigned status) {
  return status / 100 == 1 || status == 204 || status == 304;
}

std::string_view reason_phrase(unsigned status) {
  const auto known = http::int_to_status(status);
  if (known != http::status::unknown) {
    const auto text = http::obsolete_reason(known);
    return {text.data(), text.size()};
  }
  static constexpr std::array<std::string_view, 6> by_class = {
      "Unknown", "Informational", "Success", "Redirection", "Client Error", "Server Error"};
  return status >= 100 && status < 600 ? by_class[status / 100] : by_class[0];
}

void match_framing_to_status(http::response_header<>& head, bool head_request,
                             bool store_sent_body) {
  if (head_request) {
    return; // a HEAD answer describes the GET's body and never sends one
  }
  const unsigned status = head.result_int();
  if (status_forbids_body(status)) {
    head.erase(http::field::transfer_encoding);
    if (status != 304) {
      head.erase(http::field::content_length);
    }
    return;
  }
  if (!store_sent_body) {
    head.erase(http::field::transfer_encoding);
    head.set(http::field::content_length, "0");
  }
}

body_framing response_body_framing(const response_parser& parser, bool request_was_head) {
  const unsigned status = parser.get().result_int();
  if (request_was_head || status_forbids_body(status)) {
    return {};
  }
  if (parser.chunked()) {
    return {body_framing::kind::chunked, 0};
  }
  if (auto length = parser.content_length()) {
    return {body_framing::kind::length, *length};
  }
  return {body_framing::kind::until_close, 0};
}

std::string serialize_request_head(const request_parser& parser) {
  const auto& head = parser.get();
  std::string out;
  out.reserve(1024);
  out.append(head.method_string().data(), head.method_string().size());
  out.push_back(' ');
  out.append(head.target().data(), head.target().size());
  out.append(" HTTP/1.1\r\n");
  append_fields(out, head);
  out.append("\r\n");
  return out;
}

faults::request_head forwarded_request_head(const request_parser& parser) {
  const auto& head = parser.get();
  faults::request_head out;
  out.method.assign(head.method_string().data(), head.method_string().size());
  out.target.assign(head.target().data(), head.target().size());
  for_each_forwarded_field(head, [&](const auto& field) {
    out.headers.emplace_back(view(field.name_string()), view(field.value()));
  });
  return out;
}

std::string serialize_request_head(const faults::request_head& head) {
  std::string out;
  out.reserve(1024);
  out.append(head.method);
  out.push_back(' ');
  out.append(head.target);
  out.append(" HTTP/1.1\r\n");
  for (const auto& [name, value] : head.headers) {
    out.append(name);
    out.append(": ");
    out.append(value);
    out.append("\r\n");
  }
  out.append("\r\n");
  return out;
}

std::string serialize_response_head(const response_parser& parser, bool close_client) {
  const auto& head = parser.get();
  std::string out;
  out.reserve(1024);
  out.append("HTTP/1.1 ");
  out.append(std::to_string(head.result_int()));
  out.push_back(' ');
  out.append(head.reason().data(), head.reason().size());
  out.append("\r\n");
  append_fields(out, head);
  if (close_client) {
    out.append("Connection: close\r\n");
  }
  out.append("\r\n");
  return out;
}

bool expects_continue(const request_parser& parser) {
  const auto& head = parser.get();
  auto it = head.find(http::field::expect);
  return it != head.end() && boost::beast::iequals(it->value(), "100-continue");
}

namespace {

/// Calls `visit(name, value)` for each field of a head as text until it returns true.
template <class Visit> void visit_fields_in_head_text(std::string_view head, Visit&& visit) {
  std::size_t at = head.find("\r\n"); // past the start line
  while (at != std::string_view::npos && at + 2 < head.size()) {
    const std::size_t start = at + 2;
    at = head.find("\r\n", start);
    const auto line = head.substr(start, at == std::string_view::npos ? head.npos : at - start);
    if (line.empty()) {
      return;
    }
    const auto colon = line.find(':');
    if (colon != std::string_view::npos &&
        visit(line.substr(0, colon), text::trim(line.substr(colon + 1)))) {
      return;
    }
  }
}

std::string redacted_value(std::string_view name, std::string_view value) {
  return runtime::is_secret_field(name) ? "REDACTED" : std::string(value);
}

} // namespace

std::string_view field_in_head_text(std::string_view head, std::string_view name) {
  std::string_view found;
  visit_fields_in_head_text(head, [&](std::string_view field, std::string_view value) {
    if (text::iequal(field, name)) {
      found = value;
      return true;
    }
    return false;
  });
  return found;
}

std::vector<std::pair<std::string, std::string>>
redacted_fields_in_head_text(std::string_view head) {
  std::vector<std::pair<std::string, std::string>> fields;
  visit_fields_in_head_text(head, [&](std::string_view name, std::string_view value) {
    fields.emplace_back(std::string(name), redacted_value(name, value));
    return false;
  });
  return fields;
}

std::vector<std::pair<std::string, std::string>> redacted_fields(const request_parser& parser) {
  std::vector<std::pair<std::string, std::string>> fields;
  for (const auto& field : parser.get()) {
    const std::string_view name(field.name_string().data(), field.name_string().size());
    fields.emplace_back(std::string(name),
                        redacted_value(name, {field.value().data(), field.value().size()}));
  }
  return fields;
}

} // namespace s3fault::proxy
