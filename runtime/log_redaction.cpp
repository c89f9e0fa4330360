#include "runtime/log_redaction.hpp"

#include "text/text.hpp"
#include "text/uri.hpp"

#include <array>

namespace s3fault::runtime {
namespace {

// Query parameters that carry signatures, credentials or tokens (SigV4 presigned URLs and the
// legacy SigV2 form).
constexpr std::array<std::string_view, 5> secret_query_names = {
    "X-Amz-Signature", "X-Amz-Credential", "X-Amz-Security-Token", "Signature", "AWSAccessKeyId"};

/// `raw_name` as it appears in the query. SigV4 percent-decodes a name once before it looks at
/// it (X%2DAmz%2DSignature, %58-Amz-Signature are X-Amz-Signature), so the name is decoded the
/// same way; the comparison then ignores case, which SigV4 does not: a log errs on hiding.
bool is_secret_name(std::string_view raw_name) {
  const std::string name = text::uri_decode(raw_name);
  for (auto secret : secret_query_names) {
    if (text::iequal(name, secret)) {
      return true;
    }
  }
  return false;
}

// Fields whose values are secrets, or let one be checked (the key's MD5): a request's, and
// Set-Cookie of a response.
constexpr std::array<std::string_view, 9> secret_field_names = {
    "Authorization",
    "Proxy-Authorization",
    "Cookie",
    "Set-Cookie",
    "X-Amz-Security-Token",
    "x-amz-server-side-encryption-customer-key",
    "x-amz-server-side-encryption-customer-key-MD5",
    "x-amz-copy-source-server-side-encryption-customer-key",
    "x-amz-copy-source-server-side-encryption-customer-key-MD5"};

} // namespace

bool is_secret_field(std::string_view name) {
  for (auto secret : secret_field_names) {
    if (text::iequal(name, secret)) {
      return true;
    }
  }
  return false;
}

std::string redact_target(std::string_view target) {
  const auto question = target.find('?');
  if (question == std::string_view::npos) {
    return std::string(target);
  }
  std::string out(target.substr(0, question + 1));
  std::string_view query = target.substr(question + 1);
  bool first = true;
  while (true) {
    const auto amp = query.find('&');
    const std::string_view pair = query.substr(0, amp);
    if (!first) {
      out.push_back('&');
    }
    first = false;
    const auto eq = pair.find('=');
    if (eq != std::string_view::npos && is_secret_name(pair.substr(0, eq))) {
      out.append(pair.substr(0, eq + 1));
      out.append("REDACTED");
    } else {
      out.append(pair);
    }
    if (amp == std::string_view::npos) {
      break;
    }
    query = query.substr(amp + 1);
  }
  return out;
}

} // namespace s3fault::runtime
