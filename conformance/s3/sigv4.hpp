#pragma once
// AWS Signature Version 4 for S3: signing requests (header and presigned-URL forms), verifying
// them on the server side, and the chunk and trailer signatures of `aws-chunked` uploads.
// Pure functions over plain values: no sockets, no clocks (time is passed in).
//
// The canonical request follows the S3 rules: the path is URI-encoded once (S3 does not
// normalise or double-encode it), the query is decoded, re-encoded strictly and sorted, header
// values are trimmed with inner runs of spaces folded.
#include "text/uri.hpp"

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::s3 {

using header_list = std::vector<std::pair<std::string, std::string>>;

struct credentials {
  std::string access_key;
  std::string secret_key;
  std::string session_token; // sent as x-amz-security-token when not empty
};

/// Special values of x-amz-content-sha256.
inline constexpr std::string_view unsigned_payload = "UNSIGNED-PAYLOAD";
inline constexpr std::string_view streaming_signed_payload = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD";
inline constexpr std::string_view streaming_signed_payload_trailer =
    "STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER";
inline constexpr std::string_view streaming_unsigned_payload_trailer =
    "STREAMING-UNSIGNED-PAYLOAD-TRAILER";

/// A request as it goes on the wire: `target` is the raw path and query exactly as sent
/// ("/bucket/a%20b?partNumber=1"); `headers` must include `host`.
struct http_request_view {
  std::string method;
  std::string target;
  header_list headers;
};

/// Signs in place: adds `x-amz-date`, `x-amz-content-sha256` (= `payload_hash`: a lower-case hex
/// SHA-256 of the body, or one of the special values above), `x-amz-security-token` when the
/// credentials have one, and `Authorization`. Every header present is signed.
void sign_request(http_request_view& request, const credentials& creds, std::string_view region,
                  std::string_view payload_hash, std::chrono::system_clock::time_point now);

/// A presigned URL target: `target` plus X-Amz-Algorithm, -Credential, -Date, -Expires,
/// -SignedHeaders (host), [-Security-Token] and -Signature. `host` is the Host header value.
std::string presign_target(std::string_view method, std::string_view host, std::string_view target,
                           const credentials& creds, std::string_view region,
                           std::chrono::seconds expires, std::chrono::system_clock::time_point now);

/// What a verified request proved, kept to verify the chunk signatures of its body.
struct signing_context {
  std::string access_key;
  std::string region;
  std::string amz_date;       // YYYYMMDDTHHMMSSZ
  std::string scope;          // YYYYMMDD/region/s3/aws4_request
  std::string signing_key;    // raw 32 bytes
  std::string seed_signature; // the request's own signature (hex)
  std::string payload_hash;   // x-amz-content-sha256 as sent (UNSIGNED-PAYLOAD for presigned)
};

/// Why verification failed, as an S3 error code and message.
struct verify_error {
  std::string code; // AccessDenied, SignatureDoesNotMatch, InvalidAccessKeyId,
                    // RequestTimeTooSkewed, AuthorizationHeaderMalformed, InvalidRequest,
                    // InvalidArgument, AuthorizationQueryParametersError (bad X-Amz-* query)
  std::string message;
  unsigned status = 403;
};

/// Looks up the secret key for an access key; nullopt when unknown.
using secret_lookup = std::function<std::optional<std::string>(std::string_view access_key)>;

/// Verifies a header-signed (Authorization: AWS4-HMAC-SHA256 ...) or presigned (X-Amz-* query)
/// request. Requests without any signature fail with AccessDenied. `max_skew` bounds the
/// difference between x-amz-date and `now` (presigned: also X-Amz-Expires). The signature is
/// accepted over the path as received or over the path decoded and encoded once again.
struct verify_result {
  std::optional<signing_context> context; // set on success
  std::optional<verify_error> error;      // set on failure
};
verify_result verify_request(const http_request_view& request, const secret_lookup& lookup,
                             std::chrono::system_clock::time_point now,
                             std::chrono::seconds max_skew = std::chrono::minutes(15));

/// Signature of one aws-chunked chunk (STREAMING-AWS4-HMAC-SHA256-PAYLOAD):
/// HMAC(signing_key, "AWS4-HMAC-SHA256-PAYLOAD\n" date "\n" scope "\n" previous "\n"
///      sha256("") "\n" sha256(chunk)).
std::string chunk_signature(const signing_context& context, std::string_view previous_signature,
                            std::string_view chunk_data);
/// Signature of the trailer block (…-PAYLOAD-TRAILER): "AWS4-HMAC-SHA256-TRAILER\n" date "\n"
/// scope "\n" previous "\n" sha256(trailer lines, each "name:value\n").
std::string trailer_signature(const signing_context& context, std::string_view previous_signature,
                              std::string_view trailer_block);

// Building blocks, exposed for tests and for the client.
// S3's UriEncode and percent-decoding (text/uri.hpp), used by the signer and its callers.
using text::uri_decode;
using text::uri_encode;
/// The canonical request a signer uses. Its URI line is the path as sent when that is already a
/// valid percent-encoding (what botocore and the AWS SDKs send), else the path encoded once.
std::string canonical_request(const http_request_view& request,
                              const std::vector<std::string>& signed_headers,
                              std::string_view payload_hash);
std::string signing_key(std::string_view secret_key, std::string_view date, std::string_view region,
                        std::string_view service = "s3");
/// YYYYMMDDTHHMMSSZ in UTC.
std::string amz_date(std::chrono::system_clock::time_point time);

} // namespace s3fault::s3
