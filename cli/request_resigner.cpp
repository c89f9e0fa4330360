#include "cli/request_resigner.hpp"

#include "text/text.hpp"

#include <array>
#include <chrono>

namespace s3fault::cli {
namespace {

// The query parameters of a presigned URL's signature: replaced by an Authorization field.
constexpr std::array<std::string_view, 7> presign_parameters = {
    "X-Amz-Algorithm",     "X-Amz-Credential", "X-Amz-Date",          "X-Amz-Expires",
    "X-Amz-SignedHeaders", "X-Amz-Signature",  "X-Amz-Security-Token"};

/// The region of the client's credential scope (AK/DATE/REGION/s3/aws4_request), if any.
std::optional<std::string> signed_region(const faults::request_head& head) {
  const auto scope = faults::signature_parameter(head, "Credential");
  if (!scope) {
    return std::nullopt;
  }
  const std::string& credential = *scope;
  // AK may itself hold no '/', so the region is the third piece.
  std::array<std::size_t, 3> slashes{};
  std::size_t at = 0;
  for (auto& slash : slashes) {
    slash = credential.find('/', at);
    if (slash == std::string::npos) {
      return std::nullopt;
    }
    at = slash + 1;
  }
  std::string region = credential.substr(slashes[1] + 1, slashes[2] - slashes[1] - 1);
  return region.empty() ? std::nullopt : std::optional(region);
}

} // namespace

proxy::request_resigner make_request_resigner(s3::credentials keys, std::string default_region) {
  return [keys = std::move(keys), default_region = std::move(default_region)](
             faults::request_head& head) -> std::optional<std::string> {
    const std::string payload_hash =
        head.header("x-amz-content-sha256").value_or(std::string(s3::unsigned_payload));
    if (payload_hash == s3::streaming_signed_payload ||
        payload_hash == s3::streaming_signed_payload_trailer) {
      return "its body is aws-chunked with chunk signatures chained to the client's signature "
             "(x-amz-content-sha256: " +
             payload_hash + "), and s3fault signs heads, not chunks";
    }
    if (!head.header("Host")) {
      return std::string("it has no Host field, which SigV4 signs");
    }
    const std::string region = signed_region(head).value_or(default_region);
    for (const auto name : presign_parameters) {
      head.remove_query(name);
    }
    s3::http_request_view view{head.method, head.target, std::move(head.headers)};
    s3::sign_request(view, keys, region, payload_hash, std::chrono::system_clock::now());
    head.headers = std::move(view.headers);
    return std::nullopt;
  };
}

} // namespace s3fault::cli
