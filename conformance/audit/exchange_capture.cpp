#include "conformance/audit/exchange_capture.hpp"

#include <chrono>
#include <string_view>

namespace s3fault::audit {
namespace {

// The headers a GetObject reader depends on; the reports show these for every exchange.
constexpr std::string_view recorded_headers[] = {
    "Content-Length",       "Content-Range",         "ETag",
    "x-amz-mp-parts-count", "Accept-Ranges",         "Content-Type",
    "Last-Modified",        "x-amz-checksum-crc32",  "x-amz-checksum-crc32c",
    "x-amz-checksum-sha1",  "x-amz-checksum-sha256", "x-amz-checksum-type",
    "x-amz-version-id",     "x-amz-delete-marker"};

} // namespace

exchange_record capture_exchange(const client::response& response, std::string request) {
  exchange_record entry;
  entry.request = std::move(request);
  entry.status = response.status;
  for (const auto name : recorded_headers) {
    for (const auto value : response.headers_named(name)) {
      entry.headers.emplace_back(std::string(name), std::string(value));
    }
  }
  entry.body_bytes = response.body_bytes;
  entry.body_sha256 = response.body_sha256.value_or("");
  if (response.error) {
    entry.error_code = response.error->code;
  }
  if (response.failure) {
    entry.failure = response.failure.message;
  }
  entry.seconds = std::chrono::duration<double>(response.timing.total).count();
  return entry;
}

} // namespace s3fault::audit
