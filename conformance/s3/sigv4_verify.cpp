// Server side of SigV4 for S3: checks a header-signed or presigned request the way S3 does and
// answers with the S3 error a real client would get.
//
//   request ──► which form? ──► parse Authorization / X-Amz-* ──► claimed_signature
//                                  (malformed: 400)                   │
//              time & scope checks, key lookup (403) ◄────────────────┘
//                                  │
//              canonical request (two URI spellings) ──► HMAC ──► compare ──► signing_context
#include "conformance/s3/hashing.hpp"
#include "conformance/s3/request_time.hpp"
#include "conformance/s3/sigv4.hpp"
#include "conformance/s3/sigv4_canonical.hpp"
#include "s3_errors/s3_error_codes.hpp"
#include "text/text.hpp"

#include <openssl/crypto.h>

#include <algorithm>
#include <variant>

namespace s3fault::s3 {
namespace {

using time_point = std::chrono::system_clock::time_point;

constexpr std::chrono::seconds max_presigned_expiry{604800}; // one week

using s3_errors::known_s3_error;

/// A failed verification: the code with its status from the shared table, and `message`.
verify_result fail(const s3_errors::s3_error_code& error, std::string message) {
  return {std::nullopt, verify_error{std::string(error.code), std::move(message), error.status}};
}

verify_result header_malformed(std::string_view why) {
  return fail(known_s3_error("AuthorizationHeaderMalformed"),
              "The authorization header is malformed; " + std::string(why));
}

verify_result query_malformed(std::string why) {
  return fail(known_s3_error("AuthorizationQueryParametersError"), std::move(why));
}

/// AKID/YYYYMMDD/region/s3/aws4_request
struct credential_fields {
  std::string access_key;
  std::string date;
  std::string region;
};

std::optional<credential_fields> parse_credential(std::string_view text) {
  std::vector<std::string_view> parts;
  while (true) {
    const auto slash = text.find('/');
    parts.push_back(text.substr(0, slash));
    if (slash == std::string_view::npos) {
      break;
    }
    text = text.substr(slash + 1);
  }
  if (parts.size() != 5 || parts[0].empty() || parts[1].size() != 8 || parts[2].empty() ||
      parts[3] != "s3" || parts[4] != "aws4_request" ||
      !std::all_of(parts[1].begin(), parts[1].end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  return credential_fields{std::string(parts[0]), std::string(parts[1]), std::string(parts[2])};
}

std::vector<std::string> split_signed_headers(std::string_view text) {
  std::vector<std::string> names;
  while (true) {
    const auto semicolon = text.find(';');
    names.emplace_back(text.substr(0, semicolon));
    if (semicolon == std::string_view::npos) {
      break;
    }
    text = text.substr(semicolon + 1);
  }
  return names;
}

bool lists_header(const std::vector<std::string>& signed_headers, std::string_view name) {
  return std::any_of(
      signed_headers.begin(), signed_headers.end(),
      [&](const std::string& signed_name) { return text::ascii_lower(signed_name) == name; });
}

bool is_payload_hash(std::string_view value) {
  if (value == unsigned_payload || value == streaming_signed_payload ||
      value == streaming_signed_payload_trailer || value == streaming_unsigned_payload_trailer) {
    return true;
  }
  return value.size() == 64 && std::all_of(value.begin(), value.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
         });
}

/// What either form of signature claims, reduced to what the HMAC check needs.
struct claimed_signature {
  credential_fields credential;
  std::string amz_date; // the request time, ISO 8601 basic, as it enters the string to sign
  std::vector<std::string> signed_headers;
  std::string signature;
  std::string canonical_query;
  std::string payload_hash;
};

bool same_signature(std::string_view expected, std::string_view provided) {
  return expected.size() == provided.size() &&
         CRYPTO_memcmp(expected.data(), provided.data(), expected.size()) == 0;
}

/// Computes the signature over both spellings of the canonical URI and compares.
verify_result check_signature(const http_request_view& request, const claimed_signature& claim,
                              const std::string& secret) {
  const auto key =
      signing_key(secret, claim.credential.date, claim.credential.region, std::string_view("s3"));
  const auto scope = detail::credential_scope(claim.credential.date, claim.credential.region);
  const auto path = detail::split_target(request.target).path;
  // Clients put paths on the wire in slightly different spellings: most send the key encoded
  // once and sign exactly what they send; some send characters such as '$', ':' or '@' raw (legal
  // in a URL path) but sign them %-encoded, others use lower-case hex or %2F for '/'. S3 accepts
  // both, so the signature is checked against the path as received AND against the path decoded
  // and encoded once again; either one matching proves the signer knew the secret.
  std::vector<std::string> uris = {path.empty() ? std::string("/") : std::string(path)};
  const auto reencoded = path.empty() ? std::string("/") : uri_encode(uri_decode(path), false);
  if (reencoded != uris.front()) {
    uris.push_back(reencoded);
  }
  for (const auto& uri : uris) {
    const auto canonical =
        detail::canonical_request_for(request.method, uri, claim.canonical_query, request.headers,
                                      claim.signed_headers, claim.payload_hash);
    const auto expected =
        detail::signature_hex(key, detail::string_to_sign(claim.amz_date, scope, canonical));
    if (same_signature(expected, claim.signature)) {
      signing_context context{claim.credential.access_key,
                              claim.credential.region,
                              claim.amz_date,
                              scope,
                              key,
                              claim.signature,
                              claim.payload_hash};
      return {std::move(context), std::nullopt};
    }
  }
  return fail(known_s3_error("SignatureDoesNotMatch"),
              "The request signature we calculated does not match the signature you provided. "
              "Check your key and signing method.");
}

/// The secret of the claimed access key, or the InvalidAccessKeyId error.
std::variant<std::string, verify_result> find_secret(const secret_lookup& lookup,
                                                     const std::string& access_key) {
  auto secret = lookup ? lookup(access_key) : std::nullopt;
  if (!secret) {
    return fail(known_s3_error("InvalidAccessKeyId"),
                "The AWS Access Key Id you provided does not exist in our records.");
  }
  return std::move(*secret);
}

/// Authorization: AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...
verify_result verify_header_form(const http_request_view& request, std::string_view authorization,
                                 const secret_lookup& lookup, time_point now,
                                 std::chrono::seconds max_skew) {
  authorization = text::trim(authorization);
  const auto space = authorization.find(' ');
  const auto scheme = authorization.substr(0, space);
  if (scheme == "AWS") {
    return fail(known_s3_error("InvalidRequest"),
                "The authorization mechanism you have provided is not supported. Please use "
                "AWS4-HMAC-SHA256.");
  }
  if (scheme != detail::algorithm) {
    return fail(known_s3_error("InvalidArgument"), "Unsupported Authorization Type");
  }
  std::optional<std::string_view> credential_text;
  std::optional<std::string_view> signed_text;
  std::optional<std::string_view> signature_text;
  auto rest = space == std::string_view::npos ? std::string_view{} : authorization.substr(space);
  while (!rest.empty()) {
    const auto comma = rest.find(',');
    const auto part = text::trim(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view{} : rest.substr(comma + 1);
    const auto equals = part.find('=');
    if (equals == std::string_view::npos) {
      return header_malformed("each component must be name=value");
    }
    const auto name = part.substr(0, equals);
    std::optional<std::string_view>* slot = nullptr;
    if (name == "Credential") {
      slot = &credential_text;
    } else if (name == "SignedHeaders") {
      slot = &signed_text;
    } else if (name == "Signature") {
      slot = &signature_text;
    } else {
      continue; // unknown components are ignored
    }
    if (slot->has_value()) {
      return header_malformed("a component is repeated");
    }
    *slot = part.substr(equals + 1);
  }
  if (!credential_text || !signed_text || !signature_text) {
    return header_malformed("it must contain Credential, SignedHeaders and Signature");
  }
  const auto credential = parse_credential(*credential_text);
  if (!credential) {
    return header_malformed("the Credential is mal-formed; expecting "
                            "\"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
  }

  // x-amz-date wins over Date when both are sent (the AWS PUT Object example sends both).
  std::optional<time_point> when;
  std::string date_header = "x-amz-date";
  if (const auto amz = detail::first_header(request.headers, "x-amz-date")) {
    when = parse_amz_date(text::trim(*amz));
  } else if (const auto date = detail::first_header(request.headers, "date")) {
    when = parse_http_date(text::trim(*date));
    date_header = "date";
  }
  if (!when) {
    return fail(known_s3_error("AccessDenied"),
                "AWS authentication requires a valid Date or x-amz-date header");
  }
  claimed_signature claim{
      *credential,
      amz_date(*when),
      split_signed_headers(*signed_text),
      std::string(*signature_text),
      detail::canonical_query(detail::split_target(request.target).query, false),
      {}};
  if (claim.credential.date != claim.amz_date.substr(0, 8)) {
    return header_malformed("Invalid credential date. Date is not the same as X-Amz-Date.");
  }
  if (!lists_header(claim.signed_headers, "host")) {
    return header_malformed("the SignedHeaders must include host");
  }
  if (!lists_header(claim.signed_headers, date_header)) {
    return header_malformed("the SignedHeaders must include " + date_header);
  }
  const auto content_sha256 = detail::first_header(request.headers, "x-amz-content-sha256");
  if (!content_sha256) {
    return fail(known_s3_error("InvalidRequest"),
                "Missing required header for this request: x-amz-content-sha256");
  }
  claim.payload_hash = text::trim(*content_sha256);
  if (!is_payload_hash(claim.payload_hash)) {
    return fail(known_s3_error("InvalidArgument"),
                "x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-*, or a valid sha256 "
                "value.");
  }

  auto secret = find_secret(lookup, claim.credential.access_key);
  if (auto* error = std::get_if<verify_result>(&secret)) {
    return std::move(*error);
  }
  const auto skew = now > *when ? now - *when : *when - now;
  if (skew > max_skew) {
    return fail(known_s3_error("RequestTimeTooSkewed"),
                "The difference between the request time and the current time is too large.");
  }
  return check_signature(request, claim, std::get<std::string>(secret));
}

/// ?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=...&X-Amz-Signature=...
verify_result verify_query_form(const http_request_view& request,
                                const std::vector<detail::query_param>& params,
                                const secret_lookup& lookup, time_point now,
                                std::chrono::seconds max_skew) {
  const auto param = [&params](std::string_view name) -> std::optional<std::string_view> {
    for (const auto& p : params) {
      if (p.name == name) {
        return std::string_view(p.value);
      }
    }
    return std::nullopt;
  };
  const auto algorithm = param("X-Amz-Algorithm");
  if (algorithm && *algorithm != detail::algorithm) {
    return query_malformed("X-Amz-Algorithm only supports \"AWS4-HMAC-SHA256\"");
  }
  const auto credential_text = param("X-Amz-Credential");
  const auto date_text = param("X-Amz-Date");
  const auto expires_text = param("X-Amz-Expires");
  const auto signed_text = param("X-Amz-SignedHeaders");
  const auto signature_text = param("X-Amz-Signature");
  if (!algorithm || !credential_text || !date_text || !expires_text || !signed_text ||
      !signature_text) {
    return query_malformed("Query-string authentication version 4 requires the X-Amz-Algorithm, "
                           "X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, "
                           "and X-Amz-Expires parameters.");
  }
  const auto expires_seconds = text::parse_whole_number(*expires_text);
  if (!expires_seconds) {
    return query_malformed("X-Amz-Expires should be a non-negative number");
  }
  if (*expires_seconds > static_cast<std::uint64_t>(max_presigned_expiry.count())) {
    return query_malformed("X-Amz-Expires must be less than a week (in seconds) that is 604800");
  }
  const std::chrono::seconds expires(static_cast<std::chrono::seconds::rep>(*expires_seconds));
  const auto credential = parse_credential(*credential_text);
  if (!credential) {
    return query_malformed("Error parsing the X-Amz-Credential parameter; expecting "
                           "\"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".");
  }
  const auto when = parse_amz_date(*date_text);
  if (!when) {
    return query_malformed("X-Amz-Date must be in the ISO8601 Long Format "
                           "\"yyyyMMdd'T'HHmmss'Z'\"");
  }
  if (credential->date != date_text->substr(0, 8)) {
    return query_malformed("Invalid credential date. Date is not the same as X-Amz-Date.");
  }
  claimed_signature claim{*credential,
                          std::string(*date_text),
                          split_signed_headers(*signed_text),
                          std::string(*signature_text),
                          detail::canonical_query(detail::split_target(request.target).query, true),
                          std::string(unsigned_payload)};
  if (!lists_header(claim.signed_headers, "host")) {
    return query_malformed("X-Amz-SignedHeaders must include host");
  }
  // A presigned URL normally signs UNSIGNED-PAYLOAD, but a signer that was handed an
  // x-amz-content-sha256 header (botocore) or query parameter signs that value instead. The
  // caller of the URL may also add the header without it having been signed, so each value the
  // signer could have used is tried; the one that matches is reported.
  std::vector<std::string> payload_candidates;
  if (const auto header = detail::first_header(request.headers, "x-amz-content-sha256")) {
    payload_candidates.emplace_back(text::trim(*header));
  }
  if (const auto query_value = param("X-Amz-Content-Sha256")) {
    payload_candidates.emplace_back(*query_value);
  }
  payload_candidates.emplace_back(unsigned_payload);

  auto secret = find_secret(lookup, claim.credential.access_key);
  if (auto* error = std::get_if<verify_result>(&secret)) {
    return std::move(*error);
  }
  if (*when > now + max_skew) {
    return fail(known_s3_error("AccessDenied"), "Request is not valid yet");
  }
  if (now > *when + expires) {
    return fail(known_s3_error("AccessDenied"), "Request has expired");
  }
  verify_result result;
  for (const auto& candidate : payload_candidates) {
    claim.payload_hash = candidate;
    result = check_signature(request, claim, std::get<std::string>(secret));
    if (result.context) {
      break;
    }
  }
  return result;
}

} // namespace

verify_result verify_request(const http_request_view& request, const secret_lookup& lookup,
                             std::chrono::system_clock::time_point now,
                             std::chrono::seconds max_skew) {
  const auto params = detail::decode_query(detail::split_target(request.target).query);
  const bool presigned = std::any_of(params.begin(), params.end(), [](const auto& p) {
    return p.name == "X-Amz-Algorithm" || p.name == "X-Amz-Credential" ||
           p.name == "X-Amz-Signature";
  });
  const auto authorization = detail::first_header(request.headers, "authorization");
  if (authorization && presigned) {
    return fail(known_s3_error("InvalidArgument"),
                "Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter, "
                "Signature query string parameter or the Authorization header should be specified");
  }
  if (authorization) {
    return verify_header_form(request, *authorization, lookup, now, max_skew);
  }
  if (presigned) {
    return verify_query_form(request, params, lookup, now, max_skew);
  }
  return fail(known_s3_error("AccessDenied"), "Access Denied");
}

} // namespace s3fault::s3
