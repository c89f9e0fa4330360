// The S3 request classifier: method, raw target, Host and Range as a client may send them.
#include "faults/s3_request.hpp"

#include <fuzzer/FuzzedDataProvider.h>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace s3fault::faults;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  FuzzedDataProvider input(data, size);
  const std::string method = input.ConsumeRandomLengthString(16);
  const std::string host = input.ConsumeRandomLengthString(128);
  const std::string range = input.ConsumeRandomLengthString(64);
  // One bit per distinguishing header (bit 0: x-amz-copy-source, as the seeds' byte says).
  const auto header_bits = input.ConsumeIntegral<std::uint8_t>();
  std::vector<std::string> headers;
  for (std::size_t i = 0; i < distinguishing_headers().size() && i < 8; ++i) {
    if ((header_bits >> i) & 1U) {
      headers.emplace_back(distinguishing_headers()[i]);
    }
  }
  const std::string target = input.ConsumeRemainingBytesAsString();
  const auto request = classify_request(
      {.method = method, .target = target, .host = host, .headers = headers, .range = range},
      {"s3.example.test", "localhost"});
  (void)operation_name(request.operation);
  for (const char* name : {"partNumber", "uploadId", "list-type", "delete", ""}) {
    (void)request.query_value(name);
  }
  // A key is only ever taken from an object-level target, which needs a bucket.
  if (!request.key.empty() && request.bucket.empty()) {
    __builtin_trap();
  }
  return 0;
}
