#pragma once
// An origin in-process on 127.0.0.1 port 0 and a minimal blocking HTTP/1.1 client that signs
// requests with the SigV4 library and returns raw statuses, headers and bodies.
#include "conformance/origin/origin_server.hpp"
#include "conformance/origin/origin_service.hpp"
#include "conformance/s3/sigv4.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <thread>

namespace s3fault::origin::testing {

inline const s3::credentials test_credentials{"s3fault", "s3fault-secret", ""};

struct raw_response {
  unsigned status = 0;
  std::vector<std::pair<std::string, std::string>> headers;
  std::string body;

  /// First header with this name (case-insensitive).
  std::optional<std::string> header(std::string_view name) const;
  /// The text of <Code> in an error body.
  std::string error_code() const;
};

/// A request before signing. `payload_hash` empty: the hex SHA-256 of `body`.
struct raw_request {
  raw_request(std::string method, std::string target, s3::header_list headers = {},
              std::string body = {})
      : method(std::move(method)), target(std::move(target)), headers(std::move(headers)),
        body(std::move(body)) {}

  std::string method;
  std::string target;
  s3::header_list headers; // besides Host, which the client adds
  std::string body;
  std::string payload_hash;
};

/// Runs an origin_server on its own thread for the life of the object.
class running_origin {
public:
  explicit running_origin(origin_config config = {});
  ~running_origin();
  std::uint16_t port() const { return port_; }
  std::string host() const { return "127.0.0.1:" + std::to_string(port_); }
  origin_server& server() { return *server_; }

  /// Signs (header form) and sends; one connection per request.
  raw_response send(raw_request request) const;
  /// Sends as is (no signature): for unsigned and hand-made requests.
  raw_response send_unsigned(const raw_request& request) const;
  /// Sends bytes as written, reads one response; `head_request` says whether a body follows.
  raw_response send_raw(const std::string& bytes, bool head_request = false) const;

  /// Signs a request and returns it with its headers (Host included), without sending.
  s3::http_request_view sign(raw_request request) const;

private:
  std::unique_ptr<origin_server> server_;
  std::thread thread_;
  std::uint16_t port_ = 0;
};

/// The signing context a verified request would have: for building aws-chunked bodies.
s3::signing_context context_of(const s3::http_request_view& signed_request);

/// Serializes a signed request with Content-Length (or the given framing headers) and body.
std::string serialize(const s3::http_request_view& request, const std::string& body,
                      bool add_content_length = true);

} // namespace s3fault::origin::testing
