#pragma once
// Request targets as they may be logged: presigned URLs carry signatures, credentials and
// session tokens in the query, so every access log line (proxy and origin) goes through here.
#include <string>
#include <string_view>

namespace s3fault::runtime {

/// The target with the values of credential-bearing query parameters replaced by "REDACTED":
/// X-Amz-Signature, X-Amz-Credential and X-Amz-Security-Token (SigV4 presigned URLs), Signature
/// and AWSAccessKeyId (SigV2). A name matches once percent-decoded as SigV4 decodes it (any
/// byte escaped, either case of hex digits; '+' stays '+') and without regard to case. The whole
/// value goes, whatever it holds ('+', %20, %26); everything else is kept as received, byte for
/// byte.
std::string redact_target(std::string_view target);

/// Whether a request field carries a secret, so that its value must not be written anywhere:
/// Authorization, Proxy-Authorization, Cookie, X-Amz-Security-Token and the server-side
/// encryption customer keys (with their MD5s). Case-insensitive.
bool is_secret_field(std::string_view name);

} // namespace s3fault::runtime
