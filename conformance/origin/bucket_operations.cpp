// ListBuckets, CreateBucket, DeleteBucket, HeadBucket, GetBucketLocation, GetBucketVersioning.
#include "conformance/origin/operations.hpp"
#include "conformance/origin/xml_render.hpp"
#include "conformance/origin/xml_requests.hpp"

#include <algorithm>
#include <cctype>

namespace s3fault::origin {
namespace {

bool looks_like_ip_address(std::string_view name) {
  int dots = 0;
  for (char c : name) {
    if (c == '.') {
      ++dots;
    } else if (!std::isdigit(static_cast<unsigned char>(c))) {
      return false;
    }
  }
  return dots == 3;
}

/// The LocationConstraint rules of CreateBucket: in us-east-1 none may be given; elsewhere it
/// must name the region the request was sent to.
std::optional<s3_error> check_location(std::string_view constraint, std::string_view region) {
  if (constraint == region && region != "us-east-1") {
    return std::nullopt;
  }
  if (constraint.empty()) {
    if (region == "us-east-1") {
      return std::nullopt;
    }
    return errors::illegal_location_constraint("unspecified", region);
  }
  if (region == "us-east-1" && constraint == "us-east-1") {
    return errors::from_table(s3_errors::known_s3_error("InvalidLocationConstraint"))
        .with("LocationConstraint", std::string(constraint));
  }
  return errors::illegal_location_constraint(constraint, region);
}

} // namespace

bool is_valid_bucket_name(std::string_view name) {
  if (name.size() < 3 || name.size() > 63) {
    return false;
  }
  const auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
  };
  const auto alnum = [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); };
  if (!std::all_of(name.begin(), name.end(), allowed) || !alnum(name.front()) ||
      !alnum(name.back())) {
    return false;
  }
  if (name.find("..") != std::string_view::npos || name.find(".-") != std::string_view::npos ||
      name.find("-.") != std::string_view::npos) {
    return false;
  }
  return !looks_like_ip_address(name) && !name.starts_with("xn--") &&
         !name.starts_with("sthree-") && !name.ends_with("-s3alias") && !name.ends_with("--ol-s3");
}

operation_start list_buckets(const request_context& context) {
  const std::string caller = context.caller();
  std::vector<bucket_summary> own;
  for (auto& bucket : context.store.list_buckets()) {
    // With --anonymous there is one implicit owner, and every bucket is its.
    if (!context.settings.credentials || context.settings.owner_key(bucket.owner) == caller) {
      own.push_back(std::move(bucket));
    }
  }
  return answer(xml_answer(render_list_buckets(owner_of(caller), own)));
}

operation_start create_bucket(const request_context& context) {
  const std::string bucket = context.request.bucket;
  if (!is_valid_bucket_name(bucket)) {
    return answer_error(errors::invalid_bucket_name(bucket), context);
  }
  const std::string resource = context.request.resource;
  const std::string region = context.settings.region;
  object_store& store = context.store;
  const time_point now = context.now;
  // Stored as given (not resolved): with --anonymous the bucket goes to the first account of a
  // later run on the same data directory.
  const std::string owner = context.signing ? context.signing->access_key : std::string();
  const std::string caller = context.caller();
  const origin_settings& settings = context.settings;
  return read_small_body(context, [=, &store, &settings](const std::string& body) {
    const auto constraint = parse_create_bucket_configuration(body);
    if (const auto* error = std::get_if<s3_error>(&constraint)) {
      return error_response(*error, resource);
    }
    if (auto error = check_location(std::get<std::string>(constraint), region)) {
      return error_response(*error, resource);
    }
    if (store.create_bucket(bucket, now, owner) == object_store::create_outcome::already_exists) {
      // Another account's bucket: 409 BucketAlreadyExists. The caller's own: 200 in us-east-1
      // (S3's legacy behaviour), 409 BucketAlreadyOwnedByYou in every other region.
      const auto existing = store.bucket_owner(bucket);
      if (existing && settings.credentials && settings.owner_key(*existing) != caller) {
        return error_response(errors::bucket_already_exists(bucket), resource);
      }
      if (region != "us-east-1") {
        return error_response(errors::bucket_already_owned_by_you(bucket), resource);
      }
    }
    origin_response response;
    response.add("Location", "/" + bucket);
    return response;
  });
}

operation_start delete_bucket(const request_context& context) {
  if (auto error = context.store.delete_bucket(context.request.bucket)) {
    return answer_error(*error, context);
  }
  origin_response response;
  response.status = 204;
  return answer(std::move(response));
}

operation_start head_bucket(const request_context& context) {
  if (!context.store.has_bucket(context.request.bucket)) {
    return answer_error(errors::no_such_bucket(context.request.bucket), context);
  }
  origin_response response;
  response.add("x-amz-bucket-region", context.settings.region);
  response.head = true;
  return answer(std::move(response));
}

operation_start get_bucket_location(const request_context& context) {
  if (!context.store.has_bucket(context.request.bucket)) {
    return answer_error(errors::no_such_bucket(context.request.bucket), context);
  }
  return answer(xml_answer(render_bucket_location(context.settings.region)));
}

operation_start get_bucket_versioning(const request_context& context) {
  const auto status = context.store.versioning(context.request.bucket);
  if (const auto* error = std::get_if<s3_error>(&status)) {
    return answer_error(*error, context);
  }
  return answer(xml_answer(render_versioning_configuration(std::get<versioning_status>(status))));
}

operation_start put_bucket_versioning(const request_context& context) {
  if (!context.store.has_bucket(context.request.bucket)) {
    return answer_error(errors::no_such_bucket(context.request.bucket), context);
  }
  object_store& store = context.store;
  const std::string bucket = context.request.bucket;
  const std::string resource = context.request.resource;
  return read_small_body(context, [=, &store](const std::string& body) {
    const auto status = parse_versioning_configuration(body);
    if (const auto* error = std::get_if<s3_error>(&status)) {
      return error_response(*error, resource);
    }
    if (auto error = store.set_versioning(bucket, std::get<versioning_status>(status))) {
      return error_response(*error, resource);
    }
    return origin_response{};
  });
}

} // namespace s3fault::origin
