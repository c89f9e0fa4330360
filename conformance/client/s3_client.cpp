#include "conformance/client/s3_client.hpp"

#include "conformance/s3/hashing.hpp"
#include "text/text.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace s3fault::client {
namespace {

request_settings settings_from(const client_config& config) {
  if (!config.anonymous && config.credentials.access_key.empty()) {
    throw std::invalid_argument(
        "credentials.access_key is empty (set anonymous for unsigned requests)");
  }
  request_settings settings;
  settings.target = endpoint::parse(config.endpoint);
  settings.style = config.style;
  settings.region = config.region;
  if (!config.anonymous) {
    settings.credentials = config.credentials;
  }
  settings.user_agent = config.user_agent;
  return settings;
}

connection_options connection_from(const client_config& config) {
  connection_options options;
  options.target = endpoint::parse(config.endpoint);
  options.tls = config.tls;
  options.timeouts = config.timeouts;
  options.max_head_bytes = config.max_head_bytes;
  options.max_error_body_bytes = config.max_error_body_bytes;
  options.retry_on_stale_connection = config.retry_on_stale_connection;
  return options;
}

/// A response for a request that was never sent.
response not_sent(client_errc code, std::string message) {
  response out;
  out.failure.ec = code;
  out.failure.where = stage::build_request;
  out.failure.message = "build request: " + std::move(message);
  return out;
}

/// Feeds every byte of `body` to `consume`; false with `error` set when a file cannot be read.
bool read_body_bytes(const body_source& body, const std::function<void(std::string_view)>& consume,
                     std::string& error) {
  if (body.which() != body_source::kind::file) {
    consume(body.bytes());
    return true;
  }
  const auto size = body.size(error);
  if (!size) {
    return false;
  }
  const int fd = ::open(body.path().c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = body.path() + ": " + std::strerror(errno);
    return false;
  }
  std::vector<char> chunk(256 * 1024);
  std::uint64_t remaining = *size;
  auto offset = static_cast<off_t>(body.offset());
  while (remaining > 0) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(remaining, chunk.size()));
    const ssize_t n = ::pread(fd, chunk.data(), want, offset);
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      error = body.path() + ": " + (n == 0 ? "shorter than expected" : std::strerror(errno));
      ::close(fd);
      return false;
    }
    consume(std::string_view(chunk.data(), static_cast<std::size_t>(n)));
    offset += n;
    remaining -= static_cast<std::uint64_t>(n);
  }
  ::close(fd);
  return true;
}

/// Sets response::error from an <Error> body: for non-2xx statuses always, for 2xx only where
/// the operation is known to report failures that way (CompleteMultipartUpload, CopyObject).
void attach_s3_error(response& out, bool error_possible_in_200) {
  const bool success = out.status >= 200 && out.status < 300;
  if (!out.head_received() || out.body.empty() || (success && !error_possible_in_200)) {
    return;
  }
  out.error = parse_error_xml(out.body);
}

template <class T, class Parse>
parsed_response<T> parse_result(response raw, Parse parse, bool error_possible_in_200 = false) {
  attach_s3_error(raw, error_possible_in_200);
  parsed_response<T> result;
  if (raw.ok()) {
    result.value = parse(raw.body, result.parse_error);
  }
  result.raw = std::move(raw);
  return result;
}

void add_query(query_list& query, std::string name, std::string value) {
  query.push_back({std::move(name), std::move(value)});
}

void add_header_if(header_list& headers, std::string_view name, const std::string& value) {
  if (!value.empty()) {
    headers.emplace_back(std::string(name), value);
  }
}

void add_metadata(header_list& headers, const header_list& metadata) {
  for (const auto& [name, value] : metadata) {
    headers.emplace_back("x-amz-meta-" + name, value);
  }
}

/// Appends the caller's extras after what the operation set.
void append_extras(s3_request& request, const request_extras& extras) {
  request.headers.insert(request.headers.end(), extras.extra_headers.begin(),
                         extras.extra_headers.end());
  request.query.insert(request.query.end(), extras.extra_query.begin(), extras.extra_query.end());
  request.payload = extras.payload;
  request.presign_expires = extras.presign_expires;
}

s3_request get_request(std::string_view method, std::string_view bucket, std::string_view key,
                       const get_options& options) {
  s3_request request;
  request.method = std::string(method);
  request.bucket = std::string(bucket);
  request.key = std::string(key);
  if (options.part_number) {
    add_query(request.query, "partNumber", std::to_string(*options.part_number));
  }
  if (!options.version_id.empty()) {
    add_query(request.query, "versionId", options.version_id);
  }
  for (const auto& [name, value] : options.response_overrides) {
    add_query(request.query, name, value);
  }
  add_header_if(request.headers, "Range", options.range);
  add_header_if(request.headers, "If-Match", options.if_match);
  add_header_if(request.headers, "If-None-Match", options.if_none_match);
  add_header_if(request.headers, "If-Modified-Since", options.if_modified_since);
  add_header_if(request.headers, "If-Unmodified-Since", options.if_unmodified_since);
  if (options.checksum_mode) {
    request.headers.emplace_back("x-amz-checksum-mode", "ENABLED");
  }
  append_extras(request, options);
  return request;
}

} // namespace

std::string byte_range(std::uint64_t first, std::uint64_t last) {
  return "bytes=" + std::to_string(first) + "-" + std::to_string(last);
}
std::string byte_range_from(std::uint64_t first) {
  return "bytes=" + std::to_string(first) + "-";
}
std::string byte_range_suffix(std::uint64_t length) {
  return "bytes=-" + std::to_string(length);
}

s3_client::s3_client(client_config config)
    : config_(std::move(config)), settings_(settings_from(config_)),
      connection_(connection_from(config_)) {}
s3_client::~s3_client() = default;
s3_client::s3_client(s3_client&&) noexcept = default;
s3_client& s3_client::operator=(s3_client&&) noexcept = default;

std::chrono::system_clock::time_point s3_client::now() const {
  return config_.clock ? config_.clock() : std::chrono::system_clock::now();
}

const connection_counters& s3_client::counters() const {
  return connection_.counters();
}

void s3_client::close() {
  connection_.close();
}

transport_error s3_client::reconnect() {
  connection_.close();
  return connection_.open();
}

s3_request s3_client::make_request(std::string_view method, std::string_view bucket,
                                   std::string_view key, const request_extras& extras) const {
  s3_request request;
  request.method = std::string(method);
  request.bucket = std::string(bucket);
  request.key = std::string(key);
  append_extras(request, extras);
  return request;
}

response s3_client::send(const s3_request& request, const read_options& read) {
  auto built = build_request(request, settings_, now());
  if (!built.error.empty()) {
    return not_sent(client_errc::local_io, built.error);
  }
  auto out = connection_.exchange(built.wire, request.body, read);
  attach_s3_error(out, false);
  return out;
}

response s3_client::send_raw(std::string_view method, std::string_view target, header_list headers,
                             const body_source& body, const raw_options& options) {
  s3::http_request_view wire{std::string(method), std::string(target), std::move(headers)};
  if (options.add_host && !find_header(wire.headers, "Host")) {
    wire.headers.insert(wire.headers.begin(), {"Host", settings_.target.authority()});
  }
  if (options.add_content_length && !find_header(wire.headers, "Content-Length") &&
      !find_header(wire.headers, "Transfer-Encoding") &&
      (body.which() != body_source::kind::none || text::iequal(method, "PUT") ||
       text::iequal(method, "POST"))) {
    std::string error;
    const auto size = body.size(error);
    if (!size) {
      return not_sent(client_errc::local_io, error);
    }
    wire.headers.emplace_back("Content-Length", std::to_string(*size));
  }
  if (options.sign) {
    sign_raw_request(wire, body, settings_, now());
  }
  auto out = connection_.exchange(wire, body, options.read);
  attach_s3_error(out, false);
  return out;
}

std::string s3_client::presign_url(std::string_view method, std::string_view bucket,
                                   std::string_view key, std::chrono::seconds expires,
                                   const query_list& query) {
  s3_request request = make_request(method, bucket, key, {});
  request.query = query;
  request.presign_expires = expires;
  const auto built = build_request(request, settings_, now());
  const std::string scheme = settings_.target.tls ? "https://" : "http://";
  return scheme + host_for(settings_, bucket) + built.wire.target;
}

response s3_client::send_with_integrity(s3_request request, bool content_md5,
                                        std::string_view checksum_algorithm,
                                        std::string_view checksum_value) {
  std::unique_ptr<s3::checksum> checksum;
  if (!checksum_algorithm.empty()) {
    checksum = s3::checksum::create(checksum_algorithm);
    if (!checksum) {
      return not_sent(client_errc::invalid_request,
                      "unknown checksum algorithm '" + std::string(checksum_algorithm) + "'");
    }
  }
  const bool compute_checksum = checksum && checksum_value.empty();
  if (content_md5 || compute_checksum) {
    std::optional<s3::digest_stream> md5;
    if (content_md5) {
      md5.emplace(s3::digest_stream::kind::md5);
    }
    std::string error;
    const bool read = read_body_bytes(
        request.body,
        [&](std::string_view data) {
          if (md5) {
            md5->update(data);
          }
          if (compute_checksum) {
            checksum->update(data);
          }
        },
        error);
    if (!read) {
      return not_sent(client_errc::local_io, error);
    }
    if (md5) {
      request.headers.emplace_back("Content-MD5", s3::base64_encode(md5->finish_raw()));
    }
  }
  if (checksum) {
    request.headers.emplace_back("x-amz-checksum-" + std::string(checksum->name()),
                                 compute_checksum ? checksum->base64_digest()
                                                  : std::string(checksum_value));
  }
  return send(request);
}

response s3_client::put_object(std::string_view bucket, std::string_view key,
                               const body_source& body, const put_options& options) {
  s3_request request;
  request.method = "PUT";
  request.bucket = std::string(bucket);
  request.key = std::string(key);
  request.body = body;
  add_header_if(request.headers, "Content-Type", options.content_type);
  add_metadata(request.headers, options.metadata);
  append_extras(request, options);
  return send_with_integrity(std::move(request), options.content_md5, options.checksum_algorithm,
                             options.checksum_value);
}

response s3_client::get_object(std::string_view bucket, std::string_view key,
                               const get_options& options) {
  return send(get_request("GET", bucket, key, options), options.read);
}

response s3_client::head_object(std::string_view bucket, std::string_view key,
                                const get_options& options) {
  return send(get_request("HEAD", bucket, key, options));
}

response s3_client::delete_object(std::string_view bucket, std::string_view key,
                                  const request_extras& options) {
  return send(make_request("DELETE", bucket, key, options));
}

parsed_response<delete_objects_result>
s3_client::delete_objects(std::string_view bucket, const std::vector<std::string>& keys, bool quiet,
                          const request_extras& options) {
  s3_request request = make_request("POST", bucket, "", options);
  request.query.insert(request.query.begin(), {"delete", std::nullopt});
  const std::string document = delete_objects_xml(keys, quiet);
  // DeleteObjects requires a body digest (Content-MD5 on most stores).
  request.headers.emplace_back("Content-Type", "application/xml");
  request.headers.emplace_back("Content-MD5", s3::base64_encode(s3::md5_raw(document)));
  request.body = body_source::from_string(document);
  return parse_result<delete_objects_result>(send(request), parse_delete_objects);
}

parsed_response<list_objects_result>
s3_client::list_objects_v2(std::string_view bucket, const list_objects_options& options) {
  s3_request request;
  request.method = "GET";
  request.bucket = std::string(bucket);
  add_query(request.query, "list-type", "2");
  if (!options.prefix.empty()) {
    add_query(request.query, "prefix", options.prefix);
  }
  if (!options.delimiter.empty()) {
    add_query(request.query, "delimiter", options.delimiter);
  }
  if (options.max_keys) {
    add_query(request.query, "max-keys", std::to_string(*options.max_keys));
  }
  if (!options.continuation_token.empty()) {
    add_query(request.query, "continuation-token", options.continuation_token);
  }
  if (!options.start_after.empty()) {
    add_query(request.query, "start-after", options.start_after);
  }
  append_extras(request, options);
  return parse_result<list_objects_result>(send(request), parse_list_objects_v2);
}

parsed_response<copy_object_result> s3_client::copy_object(std::string_view source_bucket,
                                                           std::string_view source_key,
                                                           std::string_view bucket,
                                                           std::string_view key,
                                                           const copy_object_options& options) {
  s3_request request;
  request.method = "PUT";
  request.bucket = std::string(bucket);
  request.key = std::string(key);
  std::string source =
      "/" + s3::uri_encode(source_bucket, true) + "/" + s3::uri_encode(source_key, false);
  if (!options.copy_source_version_id.empty()) {
    source += "?versionId=" + s3::uri_encode(options.copy_source_version_id, true);
  }
  request.headers.emplace_back("x-amz-copy-source", source);
  add_header_if(request.headers, "x-amz-metadata-directive", options.metadata_directive);
  add_header_if(request.headers, "x-amz-copy-source-if-match", options.copy_source_if_match);
  add_header_if(request.headers, "Content-Type", options.content_type);
  add_metadata(request.headers, options.metadata);
  append_extras(request, options);
  return parse_result<copy_object_result>(send(request), parse_copy_object, true);
}

response s3_client::delete_object_version(std::string_view bucket, std::string_view key,
                                          std::string_view version_id,
                                          const request_extras& options) {
  s3_request request = make_request("DELETE", bucket, key, {});
  add_query(request.query, "versionId", std::string(version_id));
  append_extras(request, options);
  return send(request);
}

parsed_response<object_attributes_result>
s3_client::get_object_attributes(std::string_view bucket, std::string_view key,
                                 const object_attributes_options& options) {
  s3_request request = make_request("GET", bucket, key, {});
  request.query.push_back({"attributes", std::nullopt});
  if (!options.version_id.empty()) {
    add_query(request.query, "versionId", options.version_id);
  }
  request.headers.emplace_back("x-amz-object-attributes", options.attributes);
  if (options.max_parts) {
    request.headers.emplace_back("x-amz-max-parts", std::to_string(*options.max_parts));
  }
  add_header_if(request.headers, "x-amz-part-number-marker", options.part_number_marker);
  append_extras(request, options);
  return parse_result<object_attributes_result>(send(request), parse_object_attributes);
}

response s3_client::create_bucket(std::string_view bucket, const create_bucket_options& options) {
  s3_request request = make_request("PUT", bucket, "", options);
  const std::string& constraint =
      options.location_constraint.empty() ? config_.region : options.location_constraint;
  if (!constraint.empty() && constraint != "us-east-1") {
    request.body = body_source::from_string(create_bucket_xml(constraint));
  }
  return send(request);
}

response s3_client::delete_bucket(std::string_view bucket, const request_extras& options) {
  return send(make_request("DELETE", bucket, "", options));
}

response s3_client::head_bucket(std::string_view bucket, const request_extras& options) {
  return send(make_request("HEAD", bucket, "", options));
}

parsed_response<list_buckets_result> s3_client::list_buckets(const request_extras& options) {
  return parse_result<list_buckets_result>(send(make_request("GET", "", "", options)),
                                           parse_list_buckets);
}

response s3_client::put_bucket_versioning(std::string_view bucket, std::string_view status,
                                          const request_extras& options) {
  s3_request request = make_request("PUT", bucket, "", {});
  request.query.push_back({"versioning", std::nullopt});
  const std::string document = versioning_configuration_xml(status);
  request.headers.emplace_back("Content-Type", "application/xml");
  request.headers.emplace_back("Content-MD5", s3::base64_encode(s3::md5_raw(document)));
  request.body = body_source::from_string(document);
  append_extras(request, options);
  return send(request);
}

parsed_response<list_versions_result>
s3_client::list_object_versions(std::string_view bucket, const list_versions_options& options) {
  s3_request request = make_request("GET", bucket, "", {});
  request.query.push_back({"versions", std::nullopt});
  if (!options.prefix.empty()) {
    add_query(request.query, "prefix", options.prefix);
  }
  if (!options.key_marker.empty()) {
    add_query(request.query, "key-marker", options.key_marker);
  }
  if (!options.version_id_marker.empty()) {
    add_query(request.query, "version-id-marker", options.version_id_marker);
  }
  if (options.max_keys) {
    add_query(request.query, "max-keys", std::to_string(*options.max_keys));
  }
  append_extras(request, options);
  return parse_result<list_versions_result>(send(request), parse_list_object_versions);
}

parsed_response<initiate_multipart_result>
s3_client::create_multipart_upload(std::string_view bucket, std::string_view key,
                                   const put_options& options) {
  s3_request request = make_request("POST", bucket, key, {});
  request.query.push_back({"uploads", std::nullopt});
  add_header_if(request.headers, "Content-Type", options.content_type);
  add_metadata(request.headers, options.metadata);
  if (!options.checksum_algorithm.empty()) {
    std::string upper;
    for (char c : options.checksum_algorithm) {
      upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
    request.headers.emplace_back("x-amz-checksum-algorithm", upper);
  }
  append_extras(request, options);
  return parse_result<initiate_multipart_result>(send(request), parse_initiate_multipart);
}

response s3_client::upload_part(std::string_view bucket, std::string_view key,
                                std::string_view upload_id, int part_number,
                                const body_source& body, const upload_part_options& options) {
  s3_request request = make_request("PUT", bucket, key, {});
  add_query(request.query, "partNumber", std::to_string(part_number));
  add_query(request.query, "uploadId", std::string(upload_id));
  request.body = body;
  append_extras(request, options);
  return send_with_integrity(std::move(request), options.content_md5, options.checksum_algorithm,
                             options.checksum_value);
}

parsed_response<complete_multipart_result> s3_client::complete_multipart_upload(
    std::string_view bucket, std::string_view key, std::string_view upload_id,
    const std::vector<completed_part>& parts, const request_extras& options) {
  s3_request request = make_request("POST", bucket, key, {});
  add_query(request.query, "uploadId", std::string(upload_id));
  request.headers.emplace_back("Content-Type", "application/xml");
  request.body = body_source::from_string(complete_multipart_xml(parts));
  append_extras(request, options);
  // The store may answer 200 and report a failure in the body (it sends the status before it
  // has finished assembling the object).
  return parse_result<complete_multipart_result>(send(request), parse_complete_multipart, true);
}

response s3_client::abort_multipart_upload(std::string_view bucket, std::string_view key,
                                           std::string_view upload_id,
                                           const request_extras& options) {
  s3_request request = make_request("DELETE", bucket, key, {});
  add_query(request.query, "uploadId", std::string(upload_id));
  append_extras(request, options);
  return send(request);
}

parsed_response<list_parts_result> s3_client::list_parts(std::string_view bucket,
                                                         std::string_view key,
                                                         std::string_view upload_id,
                                                         const list_parts_options& options) {
  s3_request request = make_request("GET", bucket, key, {});
  add_query(request.query, "uploadId", std::string(upload_id));
  if (options.max_parts) {
    add_query(request.query, "max-parts", std::to_string(*options.max_parts));
  }
  if (!options.part_number_marker.empty()) {
    add_query(request.query, "part-number-marker", options.part_number_marker);
  }
  append_extras(request, options);
  return parse_result<list_parts_result>(send(request), parse_list_parts);
}

parsed_response<list_uploads_result>
s3_client::list_multipart_uploads(std::string_view bucket, const list_uploads_options& options) {
  s3_request request = make_request("GET", bucket, "", {});
  request.query.push_back({"uploads", std::nullopt});
  if (!options.prefix.empty()) {
    add_query(request.query, "prefix", options.prefix);
  }
  if (!options.key_marker.empty()) {
    add_query(request.query, "key-marker", options.key_marker);
  }
  if (!options.upload_id_marker.empty()) {
    add_query(request.query, "upload-id-marker", options.upload_id_marker);
  }
  if (options.max_uploads) {
    add_query(request.query, "max-uploads", std::to_string(*options.max_uploads));
  }
  append_extras(request, options);
  return parse_result<list_uploads_result>(send(request), parse_list_multipart_uploads);
}

} // namespace s3fault::client
