// SigV4 on the server side: canonicalisation and verification of whatever a client sends
// (header-signed or presigned), and the URI encoding both sides rely on.
#include "conformance/s3/sigv4.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

using namespace s3fault::s3;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  http_request_view request;
  request.method = input.ConsumeRandomLengthString(16);
  request.target = input.ConsumeRandomLengthString(512);
  const int header_count = input.ConsumeIntegralInRange<int>(0, 12);
  std::vector<std::string> signed_names;
  for (int i = 0; i < header_count && input.remaining_bytes() > 0; ++i) {
    auto name = input.ConsumeRandomLengthString(40);
    auto value = input.ConsumeRandomLengthString(300);
    signed_names.push_back(name);
    request.headers.emplace_back(std::move(name), std::move(value));
  }
  (void)canonical_request(request, signed_names, unsigned_payload);

  const secret_lookup lookup = [](std::string_view access_key) -> std::optional<std::string> {
    if (access_key == "AKIDEXAMPLE") {
      return std::string("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
    }
    return std::nullopt;
  };
  const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1440938160));
  const auto result = verify_request(request, lookup, now);
  if (result.context.has_value() == result.error.has_value()) {
    __builtin_trap(); // exactly one of the two
  }
  if (result.context) {
    (void)chunk_signature(*result.context, result.context->seed_signature, "chunk");
  }

  // Encoding then decoding gives back the text, whatever it holds.
  const std::string text(reinterpret_cast<const char*>(data), size);
  if (uri_decode(uri_encode(text, true)) != text || uri_decode(uri_encode(text, false)) != text) {
    __builtin_trap();
  }
  return 0;
}
