#pragma once
// The seams between the proxy's HTTP objects and the fault engine's pure interfaces: request
// headers as a faults::header_lookup, the store's response head as a response_head_editor, the
// proxy's own answers, and the length rewrite of truncation that keeps the connection.
#include "faults/fault_action.hpp"
#include "faults/rule_set.hpp"
#include "proxy/http_head.hpp"

#include <string>

namespace s3fault::proxy {

/// Header lookup over a parsed request head (valid while the parser lives).
faults::header_lookup request_header_lookup(const request_parser& request);

/// Edits the parsed response head in place.
class response_head_fields final : public faults::response_head_editor {
public:
  explicit response_head_fields(http::response_header<>& head) : head_(head) {}
  unsigned status() const override { return head_.result_int(); }
  void set_status(unsigned status) override;
  std::optional<std::string> header(std::string_view name) const override;
  bool remove_header(std::string_view name) override;
  void set_header(std::string_view name, std::string_view value) override;

private:
  http::response_header<>& head_;
};

/// Announces a shorter body: Content-Length becomes the announced length. When the range
/// follows, the end of a Content-Range `bytes S-E/T` becomes S+length-1 (the total stays), so a
/// short body looks complete, and a range cut to zero bytes becomes `200 OK` without
/// Content-Range: an empty object. Otherwise status and Content-Range stay as the store sent
/// them.
void announce_body_length(http::response_header<>& head,
                          const faults::length_announcement& announced);

/// Frames a body that document actions rewrote, of `length` bytes: Content-Length, no
/// Transfer-Encoding (a chunked store body goes out in one piece), and none of the store's
/// digests of its body (Content-MD5, x-amz-checksum-*), which would not match the new one.
void frame_edited_body(http::response_header<>& head, std::uint64_t length);

/// A response the proxy makes itself, serialized with what a store's answer carries: a reason
/// phrase for any status, x-amz-request-id (unless the response has one), x-amz-id-2, Date and
/// Server (`server`; empty: none). HEAD answers and statuses without a body carry none.
std::string serialize_local_response(const faults::local_response& response, bool head_request,
                                     bool close, std::string_view server);

/// "rule:action,rule:action" for logs.
std::string describe_injections(const std::vector<faults::injection>& injected);

} // namespace s3fault::proxy
