// The plain reading of a store's response head against Beast's: whatever the bytes, a head the
// plain reading accepts must be one Beast parses to the same status, framing, keep-alive, size
// and forwarded bytes (repeated names aside: tests/support/plain_vs_beast.hpp). A difference
// aborts.
#include "proxy/plain_response_head.hpp"
#include "tests/support/plain_vs_beast.hpp"

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

using namespace s3fault::proxy;

namespace {

constexpr std::size_t head_limit = 4096;

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
  if (!s3fault::testing::plain_vs_beast(wire, head_request, close, head_limit, plain).empty()) {
    std::abort();
  }
  return 0;
}
