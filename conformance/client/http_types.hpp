#pragma once
// Plain values that go in and out of the client: header lists with case-insensitive lookups,
// where a request body comes from, where a response body goes, and the response itself with
// everything the store sent, the timings, and any transport failure as a value.
#include "conformance/client/client_error.hpp"
#include "conformance/s3/sigv4.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::client {

/// Header fields in wire order, names spelled as sent or received.
using header_list = s3::header_list;

/// The first value of `name` (case-insensitive), or nullopt.
std::optional<std::string_view> find_header(const header_list& headers, std::string_view name);
/// Every value of `name`, in order.
std::vector<std::string_view> find_headers(const header_list& headers, std::string_view name);
/// Replaces the values of `name` (all of them) with one field at the position of the first, or
/// appends it.
void set_header(header_list& headers, std::string_view name, std::string_view value);

/// Where a request body comes from. Memory bodies are signed with their SHA-256 by default;
/// file bodies are streamed from disk in chunks and sent as UNSIGNED-PAYLOAD.
class body_source {
public:
  enum class kind { none, memory, file };

  body_source() = default;
  static body_source from_string(std::string data);
  /// Borrows `data`: it must outlive every request that sends this source (bench reuses one
  /// buffer for many PUTs without copies).
  static body_source from_view(std::string_view data);
  /// `length` bytes of `path` from `offset`; nullopt means "to the end of the file".
  static body_source from_file(std::string path, std::uint64_t offset = 0,
                               std::optional<std::uint64_t> length = std::nullopt);

  kind which() const { return kind_; }
  /// The bytes of a memory body (empty for the other kinds).
  std::string_view bytes() const { return view_; }
  const std::string& path() const { return path_; }
  std::uint64_t offset() const { return offset_; }
  /// The body's size; for files it asks the file system. nullopt with `error` set when the file
  /// cannot be read or is shorter than offset + length.
  std::optional<std::uint64_t> size(std::string& error) const;

private:
  kind kind_ = kind::none;
  std::shared_ptr<const std::string> owned_;
  std::string_view view_;
  std::string path_;
  std::uint64_t offset_ = 0;
  std::optional<std::uint64_t> length_;
};

/// Receives body bytes as they arrive; returning false stops the read (the connection is then
/// closed and the response carries client_errc::sink_aborted).
using body_callback = std::function<bool(std::string_view chunk)>;

/// Where a successful (2xx) response body goes. Bodies of other statuses always go to memory
/// (capped) so that their S3 error can be parsed and shown.
class body_target {
public:
  enum class kind { memory, callback, file, discard };
  static constexpr std::size_t default_memory_cap = 64 * 1024 * 1024;

  body_target() = default;
  /// Keeps the body in `response::body`; past `cap` bytes the read stops with body_over_cap.
  static body_target memory(std::size_t cap = default_memory_cap);
  static body_target callback(body_callback sink);
  /// Creates or truncates `path` and writes the body into it.
  static body_target file(std::string path);
  /// Counts (and hashes, when asked) without keeping anything: for bench.
  static body_target discard();

  kind which() const { return kind_; }
  std::size_t cap() const { return cap_; }
  const body_callback& sink() const { return sink_; }
  const std::string& path() const { return path_; }

private:
  kind kind_ = kind::memory;
  std::size_t cap_ = default_memory_cap;
  body_callback sink_;
  std::string path_;
};

/// The step of an exchange where a transport failure happened.
enum class stage {
  none,
  build_request, // nothing was sent
  resolve,
  connect,
  tls_handshake,
  send_request,
  wait_first_byte, // request sent, no response byte yet
  read_head,
  read_body,
  local_io,
};
std::string_view to_string(stage s);

/// A failure below HTTP (or a body that did not match its framing). Empty when `ec` is clear.
struct transport_error {
  boost::system::error_code ec;
  stage where = stage::none;
  std::string message;          // one line, names the stage and what was seen
  std::uint64_t body_bytes = 0; // response body bytes that arrived before the failure

  explicit operator bool() const { return static_cast<bool>(ec); }
};

/// An S3 error body: <Error><Code/><Message/><Resource/><RequestId/></Error>.
struct s3_error {
  std::string code;
  std::string message;
  std::string resource;
  std::string request_id;
  std::string host_id;
};

/// Times from the start of the call (steady clock).
struct timings {
  using duration = std::chrono::steady_clock::duration;
  duration connect{};    // TCP connect + TLS handshake; zero when an open connection was reused
  duration first_byte{}; // to the first byte of the response (zero when none arrived)
  duration total{};      // to the end of the body, or to the failure
};

/// Everything known about one exchange. When a failure happened after the head arrived, the
/// status, headers and body bytes so far are still here: a short body is visible, never hidden.
struct response {
  unsigned status = 0; // 0 when no response head arrived
  std::string reason;
  header_list headers;  // in wire order, names as sent
  std::string raw_head; // status line and header block, byte for byte (final response)
  std::vector<unsigned> interim_statuses; // 1xx responses skipped before this one

  std::string body;                            // memory target, or the body of a non-2xx response
  std::uint64_t body_bytes = 0;                // body bytes received (all targets)
  std::optional<std::uint64_t> content_length; // as announced
  bool chunked = false;
  std::optional<std::string> body_sha256;         // hex, when asked for
  std::optional<std::string> body_md5;            // hex, when asked for
  std::optional<std::uint64_t> body_content_hash; // s3::content_hash, when asked for
  /// Bytes that were already received past the end of this message (the store sent more than
  /// it framed); the connection is dropped when this is not zero.
  std::uint64_t bytes_after_message = 0;

  std::optional<s3_error> error; // parsed from a non-2xx XML body (or a 200 with <Error>)
  transport_error failure;
  timings timing;
  bool connection_reused = false;
  /// The first attempt on a reused connection found it closed by the store before any response
  /// byte, and the request was sent again on a new connection.
  bool retried_on_new_connection = false;

  bool head_received() const { return status != 0; }
  /// No transport failure, a 2xx status and no S3 error.
  bool ok() const { return !failure && status >= 200 && status < 300 && !error; }
  std::optional<std::string_view> header(std::string_view name) const {
    return find_header(headers, name);
  }
  std::vector<std::string_view> headers_named(std::string_view name) const {
    return find_headers(headers, name);
  }
  bool has_header(std::string_view name) const { return header(name).has_value(); }
  /// One line for logs and test messages: "206 Partial Content, 10 body bytes, ..." or the
  /// failure.
  std::string describe() const;
};

} // namespace s3fault::client
