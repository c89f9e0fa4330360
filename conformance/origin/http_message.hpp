#pragma once
// The request and response as the origin's operations see them: plain values, no Beast types,
// so routing and every operation can be tested without sockets.
//
//   socket ──head──> request_head ──route──> s3_request ──operation──> origin_response ──> socket
//           body ───────────────────────────> body_consumer (uploads, XML bodies)
//
#include "conformance/origin/object_record.hpp"
#include "conformance/origin/s3_error.hpp"
#include "conformance/s3/sigv4.hpp"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::origin {

using s3::header_list;

/// A request head as received: method, raw target, header fields in their original order and
/// spelling (SigV4 verification needs them exactly).
struct request_head {
  std::string method;
  std::string target;
  header_list headers;
  /// Set by the server from the framing: the body's length when Content-Length gave one, and
  /// whether it arrives with Transfer-Encoding: chunked (length unknown in advance).
  std::optional<std::uint64_t> content_length;
  bool chunked = false;

  /// The first field with this name (case-insensitive).
  std::optional<std::string_view> header(std::string_view name) const;
  /// The same, as an owned string (for values kept beyond the request).
  std::optional<std::string> header_copy(std::string_view name) const;
  bool has_header(std::string_view name) const { return header(name).has_value(); }
};

/// Bytes of a stored object to stream as a response body: `length` bytes from `offset`.
struct object_slice {
  std::shared_ptr<const object_record> object;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

/// A response ready to send. The server adds the framing (Content-Length, Connection) and the
/// fields every response has (x-amz-request-id, x-amz-id-2, Date, Server).
struct origin_response {
  unsigned status = 200;
  header_list headers;
  std::string body;                  // small bodies: XML
  std::optional<object_slice> slice; // or: object bytes, streamed
  /// HEAD answers announce the length the GET would have but send no body.
  bool head = false;
  /// An error to render (finalize_response turns it into status, headers and XML).
  std::optional<s3_error> error;
  std::string resource; // for the error body

  std::uint64_t body_length() const { return slice ? slice->length : body.size(); }
  void add(std::string name, std::string value) {
    headers.emplace_back(std::move(name), std::move(value));
  }
};

/// An answer that is an S3 error about `resource` ("/bucket/key").
origin_response error_response(s3_error error, std::string resource);

/// Takes a request body as it arrives (transfer framing already removed), then answers.
/// Used for uploads (streamed to storage) and for the small XML bodies of other operations.
class body_consumer {
public:
  virtual ~body_consumer() = default;
  /// Takes the next bytes; an error ends the request (the rest of the body is not wanted).
  virtual std::optional<s3_error> consume(std::string_view bytes) = 0;
  /// The body has ended; the answer to the request.
  virtual origin_response finish() = 0;
};

} // namespace s3fault::origin
