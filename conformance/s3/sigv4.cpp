// Signing side of SigV4 for S3, and the canonicalisation shared with verification.
#include "conformance/s3/sigv4.hpp"

#include "conformance/s3/hashing.hpp"
#include "conformance/s3/sigv4_canonical.hpp"
#include "text/text.hpp"
#include "text/uri.hpp"

#include <algorithm>
#include <set>

namespace s3fault::s3 {
namespace {

using text::is_escape_at;
using text::is_unreserved;

constexpr std::string_view empty_sha256 =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

bool is_whitespace(char c) {
  return c == ' ' || c == '\t';
}

/// Removes every header named `name` (case-insensitive).
void erase_headers(header_list& headers, std::string_view name) {
  std::erase_if(headers,
                [&](const auto& header) { return text::ascii_lower(header.first) == name; });
}

} // namespace

namespace detail {

target_parts split_target(std::string_view target) {
  const auto question = target.find('?');
  if (question == std::string_view::npos) {
    return {target, {}};
  }
  return {target.substr(0, question), target.substr(question + 1)};
}

std::vector<query_param> decode_query(std::string_view query) {
  std::vector<query_param> params;
  while (!query.empty()) {
    const auto amp = query.find('&');
    const auto piece = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (piece.empty()) {
      continue; // "a=1&&b=2": an empty piece names nothing
    }
    const auto equals = piece.find('=');
    if (equals == std::string_view::npos) {
      params.push_back({uri_decode(piece), {}});
    } else {
      params.push_back({uri_decode(piece.substr(0, equals)), uri_decode(piece.substr(equals + 1))});
    }
  }
  return params;
}

std::string canonical_query(std::string_view query, bool drop_signature) {
  std::vector<std::pair<std::string, std::string>> encoded;
  for (const auto& param : decode_query(query)) {
    if (drop_signature && param.name == "X-Amz-Signature") {
      continue;
    }
    encoded.emplace_back(uri_encode(param.name, true), uri_encode(param.value, true));
  }
  std::sort(encoded.begin(), encoded.end());
  std::string canonical;
  for (const auto& [name, value] : encoded) {
    if (!canonical.empty()) {
      canonical.push_back('&');
    }
    canonical += name;
    canonical.push_back('=');
    canonical += value;
  }
  return canonical;
}

std::string canonical_uri_for_signing(std::string_view path) {
  if (path.empty()) {
    return "/";
  }
  bool already_encoded = true;
  for (std::size_t i = 0; i < path.size() && already_encoded; ++i) {
    if (path[i] == '%') {
      already_encoded = is_escape_at(path, i);
      i += 2;
    } else {
      already_encoded = is_unreserved(path[i]) || path[i] == '/';
    }
  }
  return already_encoded ? std::string(path) : uri_encode(uri_decode(path), false);
}

std::vector<std::string_view> header_values(const header_list& headers, std::string_view name) {
  const auto wanted = text::ascii_lower(name);
  std::vector<std::string_view> values;
  for (const auto& [header_name, value] : headers) {
    if (text::ascii_lower(header_name) == wanted) {
      values.emplace_back(value);
    }
  }
  return values;
}

std::optional<std::string_view> first_header(const header_list& headers, std::string_view name) {
  const auto wanted = text::ascii_lower(name);
  for (const auto& [header_name, value] : headers) {
    if (text::ascii_lower(header_name) == wanted) {
      return std::string_view(value);
    }
  }
  return std::nullopt;
}

std::string trim_and_fold(std::string_view value) {
  std::string folded;
  folded.reserve(value.size());
  bool pending_space = false;
  for (const char c : value) {
    if (is_whitespace(c)) {
      pending_space = !folded.empty();
      continue;
    }
    if (pending_space) {
      folded.push_back(' ');
      pending_space = false;
    }
    folded.push_back(c);
  }
  return folded;
}

std::string canonical_request_for(std::string_view method, std::string_view canonical_uri,
                                  std::string_view canonical_query_string,
                                  const header_list& headers,
                                  const std::vector<std::string>& signed_headers,
                                  std::string_view payload_hash) {
  std::string request;
  request += method;
  request.push_back('\n');
  request += canonical_uri;
  request.push_back('\n');
  request += canonical_query_string;
  request.push_back('\n');
  std::string names;
  for (const auto& name : signed_headers) {
    std::string joined;
    for (const auto value : header_values(headers, name)) {
      if (!joined.empty()) {
        joined.push_back(',');
      }
      joined += trim_and_fold(value);
    }
    request += name;
    request.push_back(':');
    request += joined;
    request.push_back('\n');
    if (!names.empty()) {
      names.push_back(';');
    }
    names += name;
  }
  request.push_back('\n');
  request += names;
  request.push_back('\n');
  request += payload_hash;
  return request;
}

std::string credential_scope(std::string_view date, std::string_view region) {
  std::string scope(date);
  scope.push_back('/');
  scope += region;
  scope += "/s3/aws4_request";
  return scope;
}

std::string string_to_sign(std::string_view amz_date, std::string_view scope,
                           std::string_view canonical_request) {
  std::string text(algorithm);
  text.push_back('\n');
  text += amz_date;
  text.push_back('\n');
  text += scope;
  text.push_back('\n');
  text += sha256_hex(canonical_request);
  return text;
}

std::string signature_hex(std::string_view key, std::string_view string_to_sign) {
  return to_hex(hmac_sha256_raw(key, string_to_sign));
}

} // namespace detail

std::string canonical_request(const http_request_view& request,
                              const std::vector<std::string>& signed_headers,
                              std::string_view payload_hash) {
  const auto parts = detail::split_target(request.target);
  return detail::canonical_request_for(
      request.method, detail::canonical_uri_for_signing(parts.path),
      detail::canonical_query(parts.query, false), request.headers, signed_headers, payload_hash);
}

namespace {

std::string derive_signing_key(std::string_view secret_key, std::string_view date,
                               std::string_view region, std::string_view service) {
  const auto date_key = hmac_sha256_raw("AWS4" + std::string(secret_key), date);
  const auto region_key = hmac_sha256_raw(date_key, region);
  const auto service_key = hmac_sha256_raw(region_key, service);
  return hmac_sha256_raw(service_key, "aws4_request");
}

} // namespace

std::string signing_key(std::string_view secret_key, std::string_view date, std::string_view region,
                        std::string_view service) {
  // The key changes once a day per secret and scope; deriving it is four HMACs, which was most
  // of the cost of signing (or verifying) one small request. The last key per thread is kept.
  struct derived {
    std::string secret_key, date, region, service, key;
  };
  thread_local derived last;
  if (!last.key.empty() && last.secret_key == secret_key && last.date == date &&
      last.region == region && last.service == service) {
    return last.key;
  }
  last = derived{std::string(secret_key), std::string(date), std::string(region),
                 std::string(service), derive_signing_key(secret_key, date, region, service)};
  return last.key;
}

void sign_request(http_request_view& request, const credentials& creds, std::string_view region,
                  std::string_view payload_hash, std::chrono::system_clock::time_point now) {
  // Re-signing (a retry, or a test re-using a request) must not sign stale auth headers.
  for (const auto name :
       {"authorization", "x-amz-date", "x-amz-content-sha256", "x-amz-security-token"}) {
    erase_headers(request.headers, name);
  }
  const auto date_time = amz_date(now);
  request.headers.emplace_back("x-amz-date", date_time);
  request.headers.emplace_back("x-amz-content-sha256", std::string(payload_hash));
  if (!creds.session_token.empty()) {
    request.headers.emplace_back("x-amz-security-token", creds.session_token);
  }

  std::set<std::string> names;
  for (const auto& header : request.headers) {
    names.insert(text::ascii_lower(header.first));
  }
  const std::vector<std::string> signed_headers(names.begin(), names.end());

  const auto date = date_time.substr(0, 8);
  const auto scope = detail::credential_scope(date, region);
  const auto canonical = canonical_request(request, signed_headers, payload_hash);
  const auto signature = detail::signature_hex(signing_key(creds.secret_key, date, region),
                                               detail::string_to_sign(date_time, scope, canonical));

  std::string signed_list;
  for (const auto& name : signed_headers) {
    if (!signed_list.empty()) {
      signed_list.push_back(';');
    }
    signed_list += name;
  }
  // ", " between the parts, as botocore and the AWS SDKs send it.
  request.headers.emplace_back(
      "Authorization", std::string(detail::algorithm) + " Credential=" + creds.access_key + "/" +
                           scope + ", SignedHeaders=" + signed_list + ", Signature=" + signature);
}

std::string presign_target(std::string_view method, std::string_view host, std::string_view target,
                           const credentials& creds, std::string_view region,
                           std::chrono::seconds expires,
                           std::chrono::system_clock::time_point now) {
  const auto parts = detail::split_target(target);
  const auto date_time = amz_date(now);
  const auto date = date_time.substr(0, 8);
  const auto scope = detail::credential_scope(date, region);

  // The operation's own parameters first, re-encoded strictly, then the auth parameters in the
  // order botocore writes them; X-Amz-Signature last. Stale auth parameters are dropped.
  std::string query;
  const auto append = [&query](std::string_view name, std::string_view value) {
    if (!query.empty()) {
      query.push_back('&');
    }
    query += uri_encode(name, true);
    query.push_back('=');
    query += uri_encode(value, true);
  };
  for (const auto& param : detail::decode_query(parts.query)) {
    static const std::set<std::string, std::less<>> auth_params = {
        "X-Amz-Algorithm",     "X-Amz-Credential",     "X-Amz-Date",     "X-Amz-Expires",
        "X-Amz-SignedHeaders", "X-Amz-Security-Token", "X-Amz-Signature"};
    if (!auth_params.contains(param.name)) {
      append(param.name, param.value);
    }
  }
  append("X-Amz-Algorithm", detail::algorithm);
  append("X-Amz-Credential", creds.access_key + "/" + scope);
  append("X-Amz-Date", date_time);
  append("X-Amz-Expires", std::to_string(expires.count()));
  append("X-Amz-SignedHeaders", "host");
  if (!creds.session_token.empty()) {
    append("X-Amz-Security-Token", creds.session_token);
  }

  const header_list headers = {{"host", std::string(host)}};
  const auto canonical = detail::canonical_request_for(
      method, detail::canonical_uri_for_signing(parts.path), detail::canonical_query(query, true),
      headers, {"host"}, unsigned_payload);
  const auto signature = detail::signature_hex(signing_key(creds.secret_key, date, region),
                                               detail::string_to_sign(date_time, scope, canonical));
  return std::string(parts.path) + "?" + query + "&X-Amz-Signature=" + signature;
}

std::string chunk_signature(const signing_context& context, std::string_view previous_signature,
                            std::string_view chunk_data) {
  std::string text = "AWS4-HMAC-SHA256-PAYLOAD\n";
  text += context.amz_date;
  text.push_back('\n');
  text += context.scope;
  text.push_back('\n');
  text += previous_signature;
  text.push_back('\n');
  text += empty_sha256;
  text.push_back('\n');
  text += sha256_hex(chunk_data);
  return detail::signature_hex(context.signing_key, text);
}

std::string trailer_signature(const signing_context& context, std::string_view previous_signature,
                              std::string_view trailer_block) {
  std::string text = "AWS4-HMAC-SHA256-TRAILER\n";
  text += context.amz_date;
  text.push_back('\n');
  text += context.scope;
  text.push_back('\n');
  text += previous_signature;
  text.push_back('\n');
  text += sha256_hex(trailer_block);
  return detail::signature_hex(context.signing_key, text);
}

} // namespace s3fault::s3
