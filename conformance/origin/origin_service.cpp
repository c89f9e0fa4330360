#include "conformance/origin/origin_service.hpp"

#include "conformance/origin/copy_source.hpp"
#include "conformance/origin/http_date.hpp"
#include "conformance/origin/xml_render.hpp"
#include "conformance/s3/hashing.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>

namespace s3fault::origin {
namespace {

/// The handler of an operation the origin serves; null for the rest of S3.
operation_handler handler_for(s3_operation op) {
  switch (op) {
  case s3_operation::ListBuckets:
    return list_buckets;
  case s3_operation::CreateBucket:
    return create_bucket;
  case s3_operation::DeleteBucket:
    return delete_bucket;
  case s3_operation::HeadBucket:
    return head_bucket;
  case s3_operation::GetBucketLocation:
    return get_bucket_location;
  case s3_operation::GetBucketVersioning:
    return get_bucket_versioning;
  case s3_operation::PutBucketVersioning:
    return put_bucket_versioning;
  case s3_operation::ListObjectVersions:
    return list_object_versions;
  case s3_operation::ListObjects:
    return list_objects_v1;
  case s3_operation::ListObjectsV2:
    return list_objects_v2;
  case s3_operation::ListMultipartUploads:
    return list_multipart_uploads;
  case s3_operation::DeleteObjects:
    return delete_objects;
  case s3_operation::GetObject:
    return get_object;
  case s3_operation::HeadObject:
    return head_object;
  case s3_operation::PutObject:
    return put_object;
  case s3_operation::CopyObject:
    return copy_object;
  case s3_operation::DeleteObject:
    return delete_object;
  case s3_operation::CreateMultipartUpload:
    return create_multipart_upload;
  case s3_operation::UploadPart:
    return upload_part;
  case s3_operation::UploadPartCopy:
    return upload_part_copy;
  case s3_operation::CompleteMultipartUpload:
    return complete_multipart_upload;
  case s3_operation::AbortMultipartUpload:
    return abort_multipart_upload;
  case s3_operation::ListParts:
    return list_parts;
  case s3_operation::GetObjectTagging:
    return get_object_tagging;
  case s3_operation::GetObjectAttributes:
    return get_object_attributes;
  case s3_operation::GetBucketAcl:
  case s3_operation::GetObjectAcl:
    return get_acl; // the owner has FULL_CONTROL: nothing is ever set
  default:
    return nullptr;
  }
}

/// The signature check. nullopt context and no error: anonymous mode.
struct authentication {
  std::optional<s3::signing_context> context;
  std::optional<s3_error> error;
};

/// Signature Version 2 ("Authorization: AWS key:sig", or AWSAccessKeyId + Signature in the
/// query): S3 refuses it in every region opened since 2014 and for buckets made since 2020.
bool uses_signature_v2(const request_head& head, const s3_request& request) {
  const auto authorization = head.header("authorization");
  if (authorization && authorization->starts_with("AWS ")) {
    return true;
  }
  return request.query.has("AWSAccessKeyId") && request.query.has("Signature");
}

authentication authenticate(const request_head& head, const s3_request& request,
                            const origin_settings& settings, time_point now) {
  authentication result;
  if (!settings.credentials) {
    return result;
  }
  if (uses_signature_v2(head, request)) {
    result.error = errors::invalid_request("The authorization mechanism you have provided is not "
                                           "supported. Please use AWS4-HMAC-SHA256.");
    return result;
  }
  const s3::http_request_view view{head.method, head.target, head.headers};
  // The secret of the access key the request names; none: 403 InvalidAccessKeyId.
  const s3::secret_lookup lookup = [&settings](std::string_view access_key) {
    return settings.secret_of(access_key);
  };
  auto verified = s3::verify_request(view, lookup, now);
  if (verified.error) {
    result.error =
        s3_error{verified.error->status, verified.error->code, verified.error->message, {}, {}};
    return result;
  }
  // The signature is valid, but for another region: S3 names the one to use. Clients that
  // discover the region (GetBucketLocation) may sign that one request for any region.
  if (verified.context->region != settings.region &&
      request.op != s3_operation::GetBucketLocation) {
    const bool presigned = head.target.find("X-Amz-Credential=") != std::string::npos;
    result.error =
        errors::from_table(
            presigned ? s3_errors::known_s3_error("AuthorizationQueryParametersError")
                      : s3_errors::known_s3_error("AuthorizationHeaderMalformed"),
            "The authorization header is malformed; the region '" + verified.context->region +
                "' is wrong; expecting '" + settings.region + "'")
            .with("Region", settings.region);
    return result;
  }
  result.context = std::move(verified.context);
  return result;
}

/// True when `bucket` exists and another account owns it.
bool owned_by_another(const object_store& store, const origin_settings& settings,
                      const std::string& bucket, const std::string& caller) {
  const auto owner = store.bucket_owner(bucket);
  return owner && settings.owner_key(*owner) != caller;
}

/// Buckets belong to the account that created them: a request about another account's bucket
/// (its objects, uploads, listings, or the source of a copy) is 403 AccessDenied, as S3 answers
/// without a bucket policy. CreateBucket decides itself (BucketAlreadyExists); a bucket that
/// does not exist is left to the operation (NoSuchBucket). --anonymous: no checks.
std::optional<s3_error> check_bucket_access(const request_head& head, const s3_request& request,
                                            const origin_settings& settings,
                                            const object_store& store,
                                            const std::optional<s3::signing_context>& signing) {
  if (!settings.credentials || !signing || request.bucket.empty() ||
      request.op == s3_operation::CreateBucket) {
    return std::nullopt;
  }
  const std::string& caller = signing->access_key;
  if (owned_by_another(store, settings, request.bucket, caller)) {
    return errors::access_denied();
  }
  if (request.op == s3_operation::CopyObject || request.op == s3_operation::UploadPartCopy) {
    const auto source = parse_copy_source(head.header("x-amz-copy-source").value_or(""));
    if (const auto* parsed = std::get_if<copy_source>(&source);
        parsed && owned_by_another(store, settings, parsed->bucket, caller)) {
      return errors::access_denied();
    }
  }
  return std::nullopt;
}

} // namespace

std::string new_request_id() {
  // Time-seeded so ids from different runs differ; the counter keeps them unique within one.
  static const std::uint64_t base =
      static_cast<std::uint64_t>(std::chrono::system_clock::now().time_since_epoch().count());
  static std::atomic<std::uint64_t> counter{0};
  const std::uint64_t id =
      base * 0x9E3779B97F4A7C15ULL + counter.fetch_add(1) * 0xBF58476D1CE4E5B9ULL;
  char text[17];
  std::snprintf(text, sizeof text, "%016llX", static_cast<unsigned long long>(id));
  return text;
}

origin_service::origin_service(origin_settings settings, std::unique_ptr<storage_backend> backend)
    : settings_(std::move(settings)), store_(std::move(backend)) {}

origin_service::begun origin_service::begin(const request_head& head) {
  const s3_request request = route_request(head, settings_.domain);
  begun result;
  result.op = request.op;
  result.resource = request.resource;
  const time_point now = settings_.clock();
  auto auth = authenticate(head, request, settings_, now);
  if (auth.error) {
    result.start.response = error_response(std::move(*auth.error), request.resource);
    return result;
  }
  const operation_handler handler = handler_for(request.op);
  if (!handler) {
    result.start.response = error_response(
        !request.unknown_subresource.empty()
            ? errors::not_implemented("?" + request.unknown_subresource)
        : request.op == s3_operation::Other
            ? errors::method_not_allowed(head.method, request.key.empty() ? "BUCKET" : "OBJECT")
            : errors::not_implemented(std::string(operation_name(request.op)) +
                                      " (an S3 operation s3fault origin does not serve)"),
        request.resource);
    return result;
  }
  if (auto denied = check_bucket_access(head, request, settings_, store_, auth.context)) {
    result.start.response = error_response(std::move(*denied), request.resource);
    return result;
  }
  const request_context context{head, request, auth.context, settings_, store_, now};
  try {
    result.start = handler(context);
  } catch (const std::exception& error) {
    result.start = operation_start{};
    result.start.response = error_response(errors::internal_error(error.what()), request.resource);
  }
  return result;
}

void origin_service::finalize(origin_response& response, std::string_view request_id,
                              bool head_request) const {
  response.head = head_request;
  if (response.error) {
    const s3_error& error = *response.error;
    response.status = error.status;
    response.slice.reset();
    response.body =
        response.head ? std::string() : render_error(error, response.resource, request_id);
    response.add("Content-Type", "application/xml");
    for (const auto& [name, value] : error.headers) {
      response.add(name, value);
    }
  }
  response.add("x-amz-request-id", std::string(request_id));
  response.add("x-amz-id-2", s3::base64_encode(s3::sha256_raw(request_id)));
  response.add("Date", format_http_date(settings_.clock()));
  response.add("Server", "s3fault-origin");
}

} // namespace s3fault::origin
