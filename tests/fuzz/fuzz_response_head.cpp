// The plain reading of a store's response head against Beast's: whatever the bytes, a head the
// plain reading accepts must be one Beast parses to the same status, framing, keep-alive, size
// and forwarded bytes (repeated names aside: tests/support/grouped_head.hpp). A difference aborts.
#include "proxy/plain_response_head.hpp"
#include "tests/support/grouped_head.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace s3fault::proxy;

namespace {

constexpr std::size_t head_limit = 4096;

void require(bool same) {
  if (!same) {
    std::abort();
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) {
    return 0;
  }
  const bool head_request = (data[0] & 1) != 0;
  const bool close = (data[0] & 2) != 0;
  const std::string_view wire(reinterpret_cast<const char*>(data + 1), size - 1);
  plain_response_head plain;
  if (!read_plain_response_head(wire, head_request, head_limit, plain)) {
    return 0;
  }
  response_parser parser;
  configure_head_parser(parser, head_limit);
  parser.skip(head_request);
  boost::system::error_code ec;
  const std::size_t used = parser.put(boost::asio::buffer(wire.data(), wire.size()), ec);
  require(!ec && parser.is_header_done());
  const body_framing framing = response_body_framing(parser, head_request);
  require(plain.status == parser.get().result_int() && plain.keep_alive == parser.keep_alive());
  require(plain.framing.how == framing.how && plain.framing.length == framing.length);
  require(plain.size == used);
  using s3fault::testing::grouped_head;
  require(grouped_head(finish_response_head(plain, close)) ==
          grouped_head(serialize_response_head(parser, close)));
  return 0;
}
