#include "conformance/audit/fixtures.hpp"

#include "conformance/audit/exchange_capture.hpp"

#include <random>

namespace s3fault::audit {
namespace {

/// "PUT /bucket/key: 403 Forbidden (InvalidAccessKeyId: ...)" or the transport failure.
std::string describe_failure(std::string_view step, const client::response& response) {
  std::string text(step);
  text += ": ";
  if (!response.head_received()) {
    text +=
        response.failure.message.empty() ? std::string("no response") : response.failure.message;
    return text;
  }
  text += std::to_string(response.status) + " " + response.reason;
  if (response.error) {
    text += " (" + response.error->code;
    if (!response.error->message.empty()) {
      text += ": " + response.error->message;
    }
    text += ")";
  } else if (response.failure) {
    text += " (" + response.failure.message + ")";
  }
  return text;
}

void require_ok(std::string_view step, const client::response& response) {
  if (!response.ok()) {
    throw store_unusable(describe_failure(step, response));
  }
}

std::string header_or_empty(const client::response& response, std::string_view name) {
  const auto value = response.header(name);
  return value ? std::string(*value) : std::string();
}

void upload_single(client::s3_client& client, const std::string& bucket, fixture& object) {
  client::put_options options;
  options.content_type = object.content_type;
  const auto put =
      client.put_object(bucket, object.key, client::body_source::from_view(object.data), options);
  require_ok("uploading fixture " + object.name + " (PUT " + object.key + ")", put);
  object.upload_exchanges.push_back(capture_exchange(put, "PUT /" + bucket + "/" + object.key));
  object.upload_etag = header_or_empty(put, "ETag");
}

void upload_multipart(client::s3_client& client, const std::string& bucket, fixture& object) {
  client::put_options options;
  options.content_type = object.content_type;
  const auto created = client.create_multipart_upload(bucket, object.key, options);
  if (!created.ok()) {
    throw store_unusable(describe_failure(
        "uploading fixture " + object.name + " (CreateMultipartUpload)", created.raw));
  }
  const std::string upload_id = created.value->upload_id;
  std::vector<client::completed_part> parts;
  for (std::size_t number = 1; number <= object.part_count(); ++number) {
    const auto part = client.upload_part(bucket, object.key, upload_id, static_cast<int>(number),
                                         client::body_source::from_view(object.part_bytes(number)));
    if (!part.ok()) {
      client.abort_multipart_upload(bucket, object.key, upload_id);
      throw store_unusable(describe_failure("uploading fixture " + object.name + " (UploadPart " +
                                                std::to_string(number) + ")",
                                            part));
    }
    object.upload_exchanges.push_back(
        capture_exchange(part, "PUT /" + bucket + "/" + object.key +
                                   "?partNumber=" + std::to_string(number) + "&uploadId=..."));
    object.part_etags.push_back(header_or_empty(part, "ETag"));
    parts.push_back({static_cast<int>(number), object.part_etags.back(), "", ""});
  }
  const auto completed = client.complete_multipart_upload(bucket, object.key, upload_id, parts);
  if (!completed.ok()) {
    client.abort_multipart_upload(bucket, object.key, upload_id);
    throw store_unusable(describe_failure(
        "uploading fixture " + object.name + " (CompleteMultipartUpload)", completed.raw));
  }
  object.upload_exchanges.push_back(
      capture_exchange(completed.raw, "POST /" + bucket + "/" + object.key + "?uploadId=..."));
  object.upload_etag = completed.value->etag;
}

fixture make_fixture(std::string name, const std::string& prefix, std::uint64_t size,
                     std::vector<std::uint64_t> part_sizes, std::uint32_t seed) {
  fixture object;
  object.key = prefix + name;
  object.name = std::move(name);
  object.data = seeded_bytes(size, seed);
  object.part_sizes = std::move(part_sizes);
  object.content_type = "application/octet-stream";
  return object;
}

/// In a versioned bucket (one given with --bucket), the plain DELETEs of remove_fixtures leave
/// the versions and delete markers: removes every version under the fixtures' prefix by id. A
/// store without ListObjectVersions has nothing of the kind to leave.
void remove_versions_under(client::s3_client& client, const fixture_set& fixtures,
                           std::vector<std::string>& problems) {
  client::list_versions_options options;
  options.prefix = fixtures.prefix;
  for (int page = 0; page < 100; ++page) {
    const auto listed = client.list_object_versions(fixtures.bucket, options);
    if (!listed.ok()) {
      return;
    }
    for (const auto& version : listed.value->versions) {
      const auto deleted =
          client.delete_object_version(fixtures.bucket, version.key, version.version_id);
      if (!deleted.ok() && deleted.status != 404) {
        problems.push_back(describe_failure(
            "DELETE " + version.key + "?versionId=" + version.version_id, deleted));
      }
    }
    if (!listed.value->is_truncated) {
      return;
    }
    options.key_marker = listed.value->next_key_marker;
    options.version_id_marker = listed.value->next_version_id_marker;
  }
}

} // namespace

std::uint64_t fixture::part_offset(std::size_t number) const {
  std::uint64_t offset = 0;
  for (std::size_t i = 1; i < number && i <= part_sizes.size(); ++i) {
    offset += part_sizes[i - 1];
  }
  return offset;
}

std::string_view fixture::part_bytes(std::size_t number) const {
  return std::string_view(data).substr(part_offset(number), part_sizes.at(number - 1));
}

std::vector<const fixture*> fixture_set::all() const {
  return {&single, &multipart_uneven, &multipart_equal, &empty, &one_byte};
}

std::vector<const fixture*> fixture_set::multipart() const {
  return {&multipart_uneven, &multipart_equal};
}

std::string seeded_bytes(std::uint64_t count, std::uint32_t seed) {
  std::mt19937_64 engine(seed);
  std::string bytes(count, '\0');
  std::uint64_t i = 0;
  for (; i + 8 <= count; i += 8) {
    const std::uint64_t word = engine();
    for (int b = 0; b < 8; ++b) {
      bytes[i + b] = static_cast<char>((word >> (8 * b)) & 0xff);
    }
  }
  const std::uint64_t word = engine();
  for (int b = 0; i < count; ++i, ++b) {
    bytes[i] = static_cast<char>((word >> (8 * b)) & 0xff);
  }
  return bytes;
}

fixture_set create_fixtures(client::s3_client& client, const std::string& bucket, bool bucket_given,
                            const std::string& prefix, const fixture_plan& plan) {
  fixture_set set;
  set.bucket = bucket;
  set.prefix = prefix;
  set.single = make_fixture("single", prefix, plan.single_size, {}, plan.seed);
  set.multipart_uneven =
      make_fixture("multipart-uneven", prefix, 2 * plan.part_size + plan.uneven_tail,
                   {plan.part_size, plan.part_size, plan.uneven_tail}, plan.seed + 1);
  set.multipart_equal = make_fixture("multipart-equal", prefix, 2 * plan.part_size,
                                     {plan.part_size, plan.part_size}, plan.seed + 2);
  set.empty = make_fixture("empty", prefix, 0, {}, plan.seed + 3);
  set.one_byte = make_fixture("one-byte", prefix, 1, {}, plan.seed + 4);

  if (bucket_given) {
    const auto head = client.head_bucket(bucket);
    require_ok("checking bucket " + bucket + " (HEAD)", head);
  } else {
    const auto created = client.create_bucket(bucket);
    require_ok("creating bucket " + bucket, created);
    set.bucket_created = true;
  }
  try {
    upload_single(client, bucket, set.single);
    upload_multipart(client, bucket, set.multipart_uneven);
    upload_multipart(client, bucket, set.multipart_equal);
    upload_single(client, bucket, set.empty);
    upload_single(client, bucket, set.one_byte);
    for (fixture* object :
         {&set.single, &set.multipart_uneven, &set.multipart_equal, &set.empty, &set.one_byte}) {
      const auto head = client.head_object(bucket, object->key);
      require_ok("reading back fixture " + object->name + " (HEAD " + object->key + ")", head);
      object->etag = header_or_empty(head, "ETag");
      object->last_modified = header_or_empty(head, "Last-Modified");
    }
  } catch (const store_unusable&) {
    remove_fixtures(client, set);
    throw;
  }
  return set;
}

std::vector<std::string> remove_fixtures(client::s3_client& client, const fixture_set& fixtures,
                                         const std::vector<std::string>& extra_keys) {
  std::vector<std::string> problems;
  std::vector<std::string> keys;
  for (const fixture* object : fixtures.all()) {
    keys.push_back(object->key);
  }
  keys.insert(keys.end(), extra_keys.begin(), extra_keys.end());
  // One DELETE per key: DeleteObjects is not implemented everywhere, and the keys are few.
  for (const auto& key : keys) {
    const auto deleted = client.delete_object(fixtures.bucket, key);
    if (!deleted.ok() && deleted.status != 404) {
      problems.push_back(describe_failure("DELETE " + key, deleted));
    }
  }
  remove_versions_under(client, fixtures, problems);
  if (fixtures.bucket_created) {
    const auto deleted = client.delete_bucket(fixtures.bucket);
    if (!deleted.ok()) {
      problems.push_back(describe_failure("DELETE bucket " + fixtures.bucket, deleted));
    }
  }
  return problems;
}

} // namespace s3fault::audit
