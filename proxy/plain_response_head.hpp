#pragma once
// The store's response head read without Beast's parser, for the exchanges no rule looks at.
// Beast's parser allocates every field and files it in a case-insensitive tree: a fifth of a
// small exchange's instructions. Most answers are plain (HTTP/1.1, a Content-Length, each field
// written "Name: value"), and forwarding them only means leaving out the Connection lines. Such
// a head is forwarded as the bytes the store sent, exactly as serialize_response_head would
// write it from Beast's parse; anything else (1xx, chunked, other hop-by-hop fields, odd
// spacing, a head not whole in the buffer) is declined and goes to Beast, whose errors and
// limits stay the only ones.
#include "proxy/http_head.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace s3fault::proxy {

/// A plain response head, ready to forward.
struct plain_response_head {
  unsigned status = 0;
  bool keep_alive = true;
  body_framing framing;  // the store's body, given the request's method
  std::size_t size = 0;  // bytes of the head on the wire, blank line included
  std::string forwarded; // the status line and forwarded fields, without the blank line
};

/// Reads a whole head at the start of `bytes`. True when it is plain: then `out` holds it.
/// False when the head is not whole in `bytes`, longer than `max_head_bytes`, or anything but
/// plain: Beast's parser must read it.
bool read_plain_response_head(std::string_view bytes, bool head_request, std::size_t max_head_bytes,
                              plain_response_head& out);

/// The head to send the client: `Connection: close` added when the proxy will close the client
/// connection after this response, then the blank line.
std::string finish_response_head(plain_response_head& head, bool close_client);

} // namespace s3fault::proxy
