#pragma once
// The pieces of a SigV4 canonical request that signing (sigv4.cpp) and verification
// (sigv4_verify.cpp) share. Internal to conformance/s3: callers use sigv4.hpp.
//
//   target "/b/k%20x?b=2&a"  ──split──►  path "/b/k%20x"      ──► canonical URI
//                                        query "b=2&a"        ──► "a=&b=2" (decoded, re-encoded,
//                                                                  sorted)
//   headers                  ──────────► "name:trimmed,values\n" for each signed name
//   ─────────────────────────────────────────────────────────────────────────────────────────
//   method \n URI \n query \n headers \n signed;names \n payload-hash  ──sha256──► string to sign
#include "conformance/s3/sigv4.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::s3::detail {

inline constexpr std::string_view algorithm = "AWS4-HMAC-SHA256";

struct target_parts {
  std::string_view path;
  std::string_view query; // without the '?'
};
target_parts split_target(std::string_view target);

/// A query parameter after percent-decoding (a bare name has an empty value).
struct query_param {
  std::string name;
  std::string value;
};
std::vector<query_param> decode_query(std::string_view query);

/// The canonical query string; `drop_signature` leaves X-Amz-Signature out (presigned URLs).
std::string canonical_query(std::string_view query, bool drop_signature);

/// The canonical URI a signer uses: the path as sent when it is already a valid percent-encoded
/// path (what botocore and the AWS SDKs put on the wire), else the path encoded once.
std::string canonical_uri_for_signing(std::string_view path);

/// Values of every header named `name` (case-insensitive), in order.
std::vector<std::string_view> header_values(const header_list& headers, std::string_view name);
std::optional<std::string_view> first_header(const header_list& headers, std::string_view name);

/// Trimmed, inner runs of spaces and tabs folded to one space.
std::string trim_and_fold(std::string_view value);

std::string canonical_request_for(std::string_view method, std::string_view canonical_uri,
                                  std::string_view canonical_query_string,
                                  const header_list& headers,
                                  const std::vector<std::string>& signed_headers,
                                  std::string_view payload_hash);

std::string credential_scope(std::string_view date, std::string_view region);

std::string string_to_sign(std::string_view amz_date, std::string_view scope,
                           std::string_view canonical_request);

/// Lower-case hex HMAC-SHA256 of `string_to_sign` under the derived signing key.
std::string signature_hex(std::string_view key, std::string_view string_to_sign);

} // namespace s3fault::s3::detail
