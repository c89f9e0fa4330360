#include "conformance/client/request_builder.hpp"

#include "conformance/s3/hashing.hpp"
#include "text/text.hpp"

namespace s3fault::client {
namespace {

/// The x-amz-content-sha256 value for `body` (memory bodies are small enough to hash here).
std::string payload_hash_for(const body_source& body, payload_signing mode) {
  if (mode == payload_signing::unsigned_payload || body.which() == body_source::kind::file) {
    return std::string(s3::unsigned_payload);
  }
  return s3::sha256_hex(body.bytes());
}

/// Takes a caller-given x-amz-content-sha256 out of `headers` (sign_request adds its own).
std::optional<std::string> take_payload_hash(header_list& headers) {
  std::optional<std::string> given;
  for (auto it = headers.begin(); it != headers.end();) {
    if (text::iequal(it->first, "x-amz-content-sha256")) {
      given = it->second;
      it = headers.erase(it);
    } else {
      ++it;
    }
  }
  return given;
}

/// Methods sent with `Content-Length: 0` when they have no body. DELETE too, as the AWS SDKs
/// send it: Swift's s3api reads a DELETE without it until the client gives up (when deleting
/// the current version by id, it restores the previous one with a PUT that reads the body).
bool method_expects_body(std::string_view method) {
  return text::iequal(method, "PUT") || text::iequal(method, "POST") ||
         text::iequal(method, "DELETE");
}

} // namespace

std::string encode_path(addressing_style style, std::string_view bucket, std::string_view key) {
  std::string path = "/";
  if (style == addressing_style::path && !bucket.empty()) {
    path += s3::uri_encode(bucket, true);
    if (key.empty()) {
      return path;
    }
    path += "/";
  }
  path += s3::uri_encode(key, false);
  return path;
}

std::string encode_query(const query_list& query) {
  std::string text;
  for (const auto& param : query) {
    if (!text.empty()) {
      text += '&';
    }
    text += s3::uri_encode(param.name, true);
    if (param.value) {
      text += '=';
      text += s3::uri_encode(*param.value, true);
    }
  }
  return text;
}

std::string host_for(const request_settings& settings, std::string_view bucket) {
  if (settings.style == addressing_style::virtual_host && !bucket.empty()) {
    return std::string(bucket) + "." + settings.target.authority();
  }
  return settings.target.authority();
}

built_request build_request(const s3_request& request, const request_settings& settings,
                            std::chrono::system_clock::time_point now) {
  built_request built;
  auto& wire = built.wire;
  wire.method = request.method;
  wire.target = encode_path(settings.style, request.bucket, request.key);
  const std::string query = encode_query(request.query);
  if (!query.empty()) {
    wire.target += "?" + query;
  }
  const std::string host = host_for(settings, request.bucket);
  wire.headers.emplace_back("Host", host);
  if (!settings.user_agent.empty()) {
    wire.headers.emplace_back("User-Agent", settings.user_agent);
  }
  for (const auto& header : request.headers) {
    wire.headers.push_back(header);
  }
  const auto body_size = request.body.size(built.error);
  if (!body_size) {
    return built;
  }
  const bool has_length = find_header(wire.headers, "Content-Length").has_value() ||
                          find_header(wire.headers, "Transfer-Encoding").has_value();
  if (!has_length &&
      (request.body.which() != body_source::kind::none || method_expects_body(request.method))) {
    wire.headers.emplace_back("Content-Length", std::to_string(*body_size));
  }
  if (!settings.credentials) {
    return built;
  }
  if (request.presign_expires) {
    wire.target = s3::presign_target(wire.method, host, wire.target, *settings.credentials,
                                     settings.region, *request.presign_expires, now);
    return built;
  }
  const auto given_hash = take_payload_hash(wire.headers);
  const std::string payload_hash =
      given_hash ? *given_hash : payload_hash_for(request.body, request.payload);
  s3::sign_request(wire, *settings.credentials, settings.region, payload_hash, now);
  return built;
}

void sign_raw_request(s3::http_request_view& wire, const body_source& body,
                      const request_settings& settings, std::chrono::system_clock::time_point now) {
  if (!settings.credentials) {
    return;
  }
  const auto given_hash = take_payload_hash(wire.headers);
  const std::string payload_hash =
      given_hash ? *given_hash : payload_hash_for(body, payload_signing::automatic);
  s3::sign_request(wire, *settings.credentials, settings.region, payload_hash, now);
}

} // namespace s3fault::client
