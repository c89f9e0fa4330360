#pragma once
// Reading an HTTP/1.1 message head off a stream, and writing one back out. Heads are parsed with
// Beast's parser (header only: the proxy relays bodies itself, byte for byte) and serialized from
// the parsed fields in their original order, spelling and case, so a signed request arrives at
// the store as the client signed it.
#include "faults/request_head.hpp"
#include "proxy/byte_stream.hpp"

#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/parser.hpp>

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::proxy {

namespace http = boost::beast::http;
using request_parser = http::request_parser<http::empty_body>;
using response_parser = http::response_parser<http::empty_body>;

/// Sets the head size limit and lifts the body limit (bodies are relayed, never parsed).
/// Beast 1.74 treats `body_limit(boost::none)` as a limit of zero, hence the explicit maximum.
template <class Parser> void configure_head_parser(Parser& parser, std::uint32_t max_header_bytes) {
  parser.header_limit(max_header_bytes);
  parser.body_limit(std::numeric_limits<std::uint64_t>::max());
}

/// Hop-by-hop fields: they describe one connection, so a proxy must not forward them (RFC 9110
/// 7.6.1), nor any field a Connection header names. Transfer-Encoding is not here: the proxy
/// forwards chunked bodies as they are, so the field that announces them goes along.
inline constexpr std::array<http::field, 7> hop_by_hop_fields = {
    http::field::connection,        http::field::keep_alive,
    http::field::proxy_connection,  http::field::te,
    http::field::upgrade,           http::field::proxy_authorization,
    http::field::proxy_authenticate};

/// How a message body is delimited on the wire.
struct body_framing {
  enum class kind { none, length, chunked, until_close };
  kind how = kind::none;
  std::uint64_t length = 0; // for kind::length

  bool has_body() const { return how != kind::none && !(how == kind::length && length == 0); }
};

/// Deadlines for reading one head: the wait for its first byte, then for the rest of it.
struct head_deadlines {
  /// no_first_byte_deadline: someone else bounds the wait (request_upload, while a body goes up).
  clock::duration first_byte;
  clock::duration whole_head;
};
inline constexpr clock::duration no_first_byte_deadline = clock::duration::max();

/// Outcome of reading a head.
struct head_read {
  error_code ec;           // eof with no bytes = the peer closed between messages
  bool got_bytes = false;  // any byte of this head arrived
  std::uint64_t bytes = 0; // size of the head on the wire
  /// Why the parser refused the head, when its own words hide the cause (a head with both
  /// framings is "bad Transfer-Encoding" to Beast); empty: ec.message() says it.
  std::string why;
};

/// Reads bytes into `buffer` until `parser` has a complete head. Bytes after the head stay in
/// `buffer` (the start of the body, or a pipelined message).
template <class Parser>
asio::awaitable<head_read> read_head(byte_stream& stream, boost::beast::flat_buffer& buffer,
                                     Parser& parser, head_deadlines deadlines);

/// Waits for the first bytes of a head, as read_head does, unless `buffer` holds some already.
/// `ec` is set when none came; `bytes` stays 0 (nothing is parsed).
asio::awaitable<head_read> read_head_start(byte_stream& stream, boost::beast::flat_buffer& buffer,
                                           head_deadlines deadlines);

/// Framing of a request body; nullopt with `why` set when the head is ambiguous or invalid
/// (e.g. both Content-Length and Transfer-Encoding: a request-smuggling vector).
std::optional<body_framing> request_body_framing(const request_parser& parser, std::string& why);

/// The refusal of a request with both Content-Length and Transfer-Encoding (RFC 9112 6.3: a
/// request may not be framed twice), whichever of the two the parser tripped on.
inline constexpr std::string_view both_framings_refusal =
    "both Content-Length and Transfer-Encoding: a request is framed by one or the other";
/// Framing of a response body, given the request method (HEAD responses have none).
body_framing response_body_framing(const response_parser& parser, bool request_was_head);

/// The request head to send upstream: hop-by-hop fields removed (RFC 9110 section 7.6.1),
/// everything else as received, HTTP/1.1.
std::string serialize_request_head(const request_parser& parser);
/// The request as the proxy forwards it (hop-by-hop fields left out), for request edits.
faults::request_head forwarded_request_head(const request_parser& parser);
/// An edited request head, serialized as serialize_request_head would the parsed one.
std::string serialize_request_head(const faults::request_head& head);
/// The response head to send to the client: hop-by-hop fields removed, and `Connection: close`
/// added when the proxy will close the client connection after this response.
std::string serialize_response_head(const response_parser& parser, bool close_client);

/// Statuses whose responses never carry a body (RFC 9110 6.4.1, 15.3.5, 15.4.5): 1xx, 204, 304.
bool status_forbids_body(unsigned status);
/// The reason phrase for any status: the registered one, else the class's ("Client Error").
std::string_view reason_phrase(unsigned status);
/// Makes the framing fields of a response head match what the client will get, after a fault
/// may have changed the status: none for a status without a body (304 keeps its Content-Length,
/// which describes the selected representation), and `Content-Length: 0` for a status with one
/// when the store sent no body at all. An answer to HEAD is left as it is.
void match_framing_to_status(http::response_header<>& head, bool head_request,
                             bool store_sent_body);

/// True when the request asks for `100-continue`.
bool expects_continue(const request_parser& parser);

/// The value of field `name` (case-insensitive) in a head as text, a start line then
/// `Name: value` lines, trimmed; empty when it has none. Stops at the blank line.
std::string_view field_in_head_text(std::string_view head, std::string_view name);

/// The fields of a head as text (a start line then `Name: value` lines, up to the blank line), in
/// order, values trimmed, secret ones (runtime::is_secret_field) "REDACTED": what the journal
/// and the dashboard keep of the head a client was sent.
std::vector<std::pair<std::string, std::string>>
redacted_fields_in_head_text(std::string_view head);

/// The request's fields in order, with the values of secret ones (runtime::is_secret_field)
/// replaced by "REDACTED": what the journal keeps of a request.
std::vector<std::pair<std::string, std::string>> redacted_fields(const request_parser& parser);

} // namespace s3fault::proxy
