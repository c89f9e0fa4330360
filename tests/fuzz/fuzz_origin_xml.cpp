// The XML bodies the origin reads from clients: CompleteMultipartUpload, Delete (DeleteObjects),
// CreateBucketConfiguration and VersioningConfiguration. Every input is either understood or
// refused as S3 would.
#include "conformance/origin/xml_requests.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>

using namespace s3fault::origin;

namespace {

template <typename Result> void check_refusal(const Result& result) {
  if (const auto* error = std::get_if<s3_error>(&result)) {
    if (error->code.empty() || error->status < 400 || error->status > 599) {
      __builtin_trap();
    }
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view body(reinterpret_cast<const char*>(data), size);
  check_refusal(parse_complete_multipart(body));
  const auto deletion = parse_delete_objects(body);
  check_refusal(deletion);
  if (const auto* request = std::get_if<delete_request>(&deletion)) {
    if (request->objects.size() > 1000) {
      __builtin_trap(); // S3's limit
    }
  }
  check_refusal(parse_create_bucket_configuration(body));
  check_refusal(parse_versioning_configuration(body));
  return 0;
}
