// Versioned reads (docs/contract.md, "Versions"), an optional feature: a reader that pins a
// version id must get that version's bytes, part layout and ranges, and a plain DELETE must
// leave a delete marker that hides the key without losing the older versions.
//
// Every check works in a bucket of its own, so the audit's bucket (and its cleanup) never
// becomes versioned:
//
//   CreateBucket s3fault-versions-<run> ─> PutBucketVersioning Enabled
//     ─> older: multipart, 5 MiB + 100 KiB (x-amz-version-id A)
//     ─> newer: one PUT, 4 KiB              (x-amz-version-id B)
//     ─> the check's reads
//     ─> ListObjectVersions ─> DELETE ?versionId= each ─> DeleteBucket
//
// A store that refuses the bucket or PutBucketVersioning, or answers no x-amz-version-id to a
// PUT, gets SKIP with the reason. One whose PUT has a version id but whose Complete has none
// fails (AWS sends it on both); its reads are still judged, with the id from ListObjectVersions.
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"

namespace s3fault::audit {
namespace {

struct versioned_objects {
  std::string bucket;
  std::string key;
  std::string older_data;
  std::vector<std::uint64_t> older_parts;
  std::string older_version;
  std::string older_etag; // HEAD's ETag while the older version was the latest
  std::string newer_data;
  std::string newer_version;
  std::string newer_etag;

  std::string_view older_part(std::size_t number) const {
    return std::string_view(older_data)
        .substr(number == 1 ? 0 : older_parts[0], older_parts[number - 1]);
  }
};

/// "s3fault-versions-<run>": the run's suffix is the middle of the fixtures' prefix
/// ("s3fault-audit/<run>/").
std::string versions_bucket_name(const fixture_set& fixtures) {
  std::string run = fixtures.prefix;
  const auto first = run.find('/');
  if (first != std::string::npos) {
    run = run.substr(first + 1);
  }
  if (!run.empty() && run.back() == '/') {
    run.pop_back();
  }
  return "s3fault-versions-" + run;
}

std::string header_text(const client::response& response, std::string_view name) {
  return std::string(response.header(name).value_or(""));
}

/// The id of the key's version that is not the newer one, from ListObjectVersions; empty
/// (with the listing recorded as unmet) when there is none.
std::string listed_older_version(check_context& ctx, const versioned_objects& objects) {
  client::list_versions_options options;
  options.prefix = objects.key;
  const auto versions = ctx.client().list_object_versions(objects.bucket, options);
  ctx.record(versions.raw, "GET /" + objects.bucket + "?versions&prefix=" + objects.key);
  if (versions.ok()) {
    for (const auto& version : versions.value->versions) {
      if (version.key == objects.key && !version.delete_marker &&
          version.version_id != objects.newer_version) {
        return version.version_id;
      }
    }
  }
  ctx.expect(false, "ListObjectVersions lists the older version",
             versions.ok() ? "no second version listed" : versions.raw.describe());
  return {};
}

/// Uploads the two versions; false (with SKIP or an unmet expectation recorded) when the store
/// does not keep versions.
bool upload_versions(check_context& ctx, versioned_objects& objects) {
  auto& client = ctx.client();
  const std::string target = "/" + objects.bucket + "/" + objects.key;
  const auto created = client.create_multipart_upload(objects.bucket, objects.key);
  ctx.record(created.raw, "POST " + target + "?uploads");
  if (!created.ok()) {
    ctx.skip("CreateMultipartUpload in the versioned bucket: " + created.raw.describe());
    return false;
  }
  std::vector<client::completed_part> parts;
  for (std::size_t number = 1; number <= objects.older_parts.size(); ++number) {
    // A copy: record() hands back the reference it was given, here to a temporary.
    const client::response part =
        ctx.record(client.upload_part(objects.bucket, objects.key, created.value->upload_id,
                                      static_cast<int>(number),
                                      client::body_source::from_view(objects.older_part(number))),
                   "PUT " + target + "?partNumber=" + std::to_string(number) + "&uploadId=...");
    parts.push_back(
        {static_cast<int>(number), std::string(part.header("ETag").value_or("")), "", ""});
  }
  const auto completed = client.complete_multipart_upload(objects.bucket, objects.key,
                                                          created.value->upload_id, parts);
  ctx.record(completed.raw, "POST " + target + "?uploadId=... (the older version)");
  if (!completed.ok()) {
    client.abort_multipart_upload(objects.bucket, objects.key, created.value->upload_id);
    ctx.skip("CompleteMultipartUpload in the versioned bucket: " + completed.raw.describe());
    return false;
  }
  objects.older_version = header_text(completed.raw, "x-amz-version-id");
  // The older version's ETag as a reader learns it: HEAD while it is the latest (a Complete's
  // <ETag> may be empty; etag.complete-result judges that).
  objects.older_etag = header_text(ctx.head_key(objects.bucket, objects.key), "ETag");
  const client::response newer =
      ctx.record(client.put_object(objects.bucket, objects.key,
                                   client::body_source::from_view(objects.newer_data)),
                 "PUT " + target + " (the newer version)");
  if (!newer.ok()) {
    ctx.skip("PUT in the versioned bucket: " + newer.describe());
    return false;
  }
  objects.newer_version = header_text(newer, "x-amz-version-id");
  objects.newer_etag = header_text(newer, "ETag");
  if (objects.newer_version.empty()) {
    ctx.skip("no x-amz-version-id on PUT in a bucket with versioning Enabled");
    return false;
  }
  if (objects.older_version.empty()) {
    // The store keeps versions (the PUT has an id) but did not say which one the Complete
    // made: a deviation a reader pinning versions trips over. The reads are still judged,
    // with the id ListObjectVersions gives.
    ctx.expect(false, "CompleteMultipartUpload in a versioned bucket answers x-amz-version-id",
               "no x-amz-version-id on the Complete; the older version's id is taken from "
               "ListObjectVersions");
    objects.older_version = listed_older_version(ctx, objects);
    if (objects.older_version.empty()) {
      return false;
    }
  }
  return ctx.expect(objects.older_version != objects.newer_version,
                    "two writes, two different version ids",
                    "version ids " + objects.older_version + " and " + objects.newer_version);
}

/// Removes every version and delete marker, then the bucket. A store that keeps a version or
/// the bucket fails the check: DELETE with a versionId removes that version for good.
void remove_versions(check_context& ctx, const versioned_objects& objects) {
  auto& client = ctx.client();
  client::list_versions_options options;
  options.prefix = objects.key;
  bool listed = false;
  // A handful of versions: a few pages at most, even for a store that pages by one.
  for (int page = 0; page < 10; ++page) {
    const auto versions = client.list_object_versions(objects.bucket, options);
    ctx.record(versions.raw, "GET /" + objects.bucket + "?versions&prefix=" + objects.key);
    if (!versions.ok()) {
      break;
    }
    listed = true;
    for (const auto& version : versions.value->versions) {
      ctx.record(client.delete_object_version(objects.bucket, version.key, version.version_id),
                 "DELETE /" + objects.bucket + "/" + version.key +
                     "?versionId=" + version.version_id);
    }
    if (!versions.value->is_truncated) {
      break;
    }
    options.key_marker = versions.value->next_key_marker;
    options.version_id_marker = versions.value->next_version_id_marker;
  }
  if (!listed) {
    // Without a listing (versioning never took): the plain key is all there is.
    ctx.record(client.delete_object(objects.bucket, objects.key),
               "DELETE /" + objects.bucket + "/" + objects.key);
  }
  const client::response removed = ctx.record(client.delete_bucket(objects.bucket),
                                              "DELETE /" + objects.bucket + " (the bucket)");
  ctx.expect(removed.ok(),
             "afterwards: every version deleted by versionId and the versioned bucket removed",
             "DeleteBucket: " + removed.describe());
}

/// Sets up the versioned bucket and its two versions, runs `reads` when the store keeps
/// versions, and removes everything again whatever happened in between.
void in_versioned_bucket(check_context& ctx,
                         void (*reads)(check_context&, const versioned_objects&)) {
  auto& client = ctx.client();
  versioned_objects objects;
  objects.bucket = versions_bucket_name(ctx.fixtures());
  objects.key = ctx.fixtures().prefix + "versioned";
  objects.older_parts = {5ull * 1024 * 1024, 100 * 1024 + 7};
  objects.older_data = seeded_bytes(objects.older_parts[0] + objects.older_parts[1], 31);
  objects.newer_data = seeded_bytes(4096, 32);
  const client::response bucket =
      ctx.record(client.create_bucket(objects.bucket), "PUT /" + objects.bucket);
  if (!bucket.ok()) {
    ctx.skip("a bucket for the versioning checks could not be created: " + bucket.describe());
    return;
  }
  const client::response enabled =
      ctx.record(client.put_bucket_versioning(objects.bucket, "Enabled"),
                 "PUT /" + objects.bucket + "?versioning [Status: Enabled]");
  try {
    if (!enabled.ok()) {
      ctx.skip("PutBucketVersioning refused: " + enabled.describe());
    } else if (upload_versions(ctx, objects)) {
      reads(ctx, objects);
    }
  } catch (...) {
    remove_versions(ctx, objects);
    throw;
  }
  remove_versions(ctx, objects);
}

client::get_options of_version(const std::string& version_id) {
  client::get_options options;
  options.version_id = version_id;
  return options;
}

void read_older_by_version(check_context& ctx, const versioned_objects& objects) {
  const auto older = ctx.get_key(objects.bucket, objects.key, of_version(objects.older_version));
  const std::string label = "GET ?versionId= the older version";
  ctx.expect_status(older, 200, label);
  ctx.expect_body(older, objects.older_data, label);
  ctx.expect_header(older, "ETag", objects.older_etag, label);
  ctx.expect_header(older, "x-amz-version-id", objects.older_version, label);
  const auto head = ctx.head_key(objects.bucket, objects.key, of_version(objects.older_version));
  ctx.expect_status(head, 200, "HEAD ?versionId= the older version");
  ctx.expect_header(head, "ETag", objects.older_etag, "HEAD ?versionId= the older version");
  ctx.expect_header(head, "Content-Length", std::to_string(objects.older_data.size()),
                    "HEAD ?versionId= the older version");
  ctx.expect_header(head, "x-amz-version-id", objects.older_version,
                    "HEAD ?versionId= the older version");
  const auto latest = ctx.get_key(objects.bucket, objects.key);
  ctx.expect_body(latest, objects.newer_data, "GET without versionId: the newer version");
  ctx.expect_header(latest, "x-amz-version-id", objects.newer_version,
                    "GET without versionId: the newer version");
}

void read_older_parts(check_context& ctx, const versioned_objects& objects) {
  const auto count = std::to_string(objects.older_parts.size());
  for (std::size_t number = 1; number <= objects.older_parts.size(); ++number) {
    auto options = of_version(objects.older_version);
    options.part_number = static_cast<long>(number);
    const auto part = ctx.get_key(objects.bucket, objects.key, options);
    const std::string label = "older version, part " + std::to_string(number);
    ctx.expect_status(part, 206, label);
    ctx.expect_body(part, objects.older_part(number), label);
    ctx.expect_header(part, "x-amz-mp-parts-count", count, label);
    ctx.expect_header(part, "ETag", objects.older_etag, label);
    ctx.expect_header(part, "x-amz-version-id", objects.older_version, label);
  }
  auto options = of_version(objects.older_version);
  options.part_number = 1;
  const auto head = ctx.head_key(objects.bucket, objects.key, options);
  ctx.expect_header(head, "x-amz-mp-parts-count", count, "HEAD older version, part 1");
  ctx.expect_header(head, "Content-Length", std::to_string(objects.older_parts[0]),
                    "HEAD older version, part 1");
}

void read_older_range(check_context& ctx, const versioned_objects& objects) {
  // Across the part boundary of the older version: the newer one is only 4 KiB long.
  const std::uint64_t first = objects.older_parts[0] - 10, last = objects.older_parts[0] + 9;
  auto options = of_version(objects.older_version);
  options.range = client::byte_range(first, last);
  const auto read = ctx.get_key(objects.bucket, objects.key, options);
  const std::string label = "older version, " + options.range;
  ctx.expect_status(read, 206, label);
  ctx.expect_header(read, "Content-Range",
                    "bytes " + std::to_string(first) + "-" + std::to_string(last) + "/" +
                        std::to_string(objects.older_data.size()),
                    label);
  ctx.expect_body(read, std::string_view(objects.older_data).substr(first, last - first + 1),
                  label);
  ctx.expect_header(read, "x-amz-version-id", objects.older_version, label);
}

void read_after_delete_marker(check_context& ctx, const versioned_objects& objects) {
  const client::response deleted =
      ctx.record(ctx.client().delete_object(objects.bucket, objects.key),
                 "DELETE /" + objects.bucket + "/" + objects.key + " (no versionId)");
  ctx.expect_status(deleted, 204, "DELETE without versionId");
  ctx.expect_header(deleted, "x-amz-delete-marker", "true", "DELETE without versionId");
  const auto get = ctx.get_key(objects.bucket, objects.key);
  ctx.expect_error(get, 404, "NoSuchKey", "GET after the delete marker");
  ctx.expect_header(get, "x-amz-delete-marker", "true", "GET after the delete marker");
  const auto head = ctx.head_key(objects.bucket, objects.key);
  ctx.expect_head_error(head, 404, "HEAD after the delete marker");
  ctx.expect_header(head, "x-amz-delete-marker", "true", "HEAD after the delete marker");
  const auto older = ctx.get_key(objects.bucket, objects.key, of_version(objects.older_version));
  ctx.expect_status(older, 200, "GET ?versionId= the older version after the delete marker");
  ctx.expect_body(older, objects.older_data,
                  "GET ?versionId= the older version after the delete marker");
  const auto newer = ctx.get_key(objects.bucket, objects.key, of_version(objects.newer_version));
  ctx.expect_body(newer, objects.newer_data,
                  "GET ?versionId= the newer version after the delete marker");
}

void check_get_older(check_context& ctx) {
  in_versioned_bucket(ctx, read_older_by_version);
}
void check_part_read(check_context& ctx) {
  in_versioned_bucket(ctx, read_older_parts);
}
void check_range_read(check_context& ctx) {
  in_versioned_bucket(ctx, read_older_range);
}
void check_delete_marker(check_context& ctx) {
  in_versioned_bucket(ctx, read_after_delete_marker);
}

} // namespace

void add_version_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back(
        {std::move(id), "version", std::move(title), strength, std::move(clause), run});
  };
  add("version.get-older", "GET and HEAD ?versionId= read the older version", level::must,
      "GET and HEAD with ?versionId= read that version", check_get_older);
  add("version.part-read", "partNumber reads of an older multipart version", level::must,
      "GET and HEAD with ?versionId= read that version (partNumber and Range work with it)",
      check_part_read);
  add("version.range-read", "Range reads of an older version", level::must,
      "GET and HEAD with ?versionId= read that version (partNumber and Range work with it)",
      check_range_read);
  add("version.delete-marker", "A plain DELETE hides the key; older versions stay readable",
      level::must,
      "a DELETE without a version id adds a delete marker: a plain GET then answers 404 with "
      "x-amz-delete-marker: true",
      check_delete_marker);
}

} // namespace s3fault::audit
