// Additional checksums, an optional feature (docs/contract.md, "Checksums"): a store that does
// not keep them gets SKIP, a store that returns a wrong one gets FAIL.
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"

#include "conformance/s3/hashing.hpp"

namespace s3fault::audit {
namespace {

std::string checksum_of(std::string_view algorithm, std::string_view bytes) {
  auto sum = s3::checksum::create(algorithm);
  sum->update(bytes);
  return sum->base64_digest();
}

void check_single_put(check_context& ctx, const std::string& algorithm) {
  auto& client = ctx.client();
  const auto& bucket = ctx.fixtures().bucket;
  const std::string key = ctx.fixtures().prefix + "checksum-" + algorithm;
  const std::string data = seeded_bytes(100 * 1024 + 3, 7);
  ctx.created_key(key);
  client::put_options put;
  put.checksum_algorithm = algorithm;
  // A copy: record() hands back the reference it was given, here to a temporary (ASan:
  // stack-use-after-scope).
  const client::response stored =
      ctx.record(client.put_object(bucket, key, client::body_source::from_view(data), put),
                 "PUT /" + bucket + "/" + key + " [x-amz-checksum-" + algorithm + "]");
  if (!stored.ok()) {
    ctx.skip("the store refused a PUT with x-amz-checksum-" + algorithm + ": " + stored.describe());
    return;
  }
  client::get_options options;
  options.checksum_mode = true;
  const auto read = ctx.get_key(bucket, key, options);
  const std::string header = "x-amz-checksum-" + algorithm;
  if (read.ok() && !read.has_header(header)) {
    ctx.skip("the store does not return " + header + " with x-amz-checksum-mode: ENABLED");
    return;
  }
  ctx.expect_header(read, header, checksum_of(algorithm, data), "GET with checksum mode");
  ctx.expect_body(read, data, "GET with checksum mode");
}

void check_single_crc32(check_context& ctx) {
  check_single_put(ctx, "crc32");
}
void check_single_sha256(check_context& ctx) {
  check_single_put(ctx, "sha256");
}

void check_multipart_composite(check_context& ctx) {
  auto& client = ctx.client();
  const auto& bucket = ctx.fixtures().bucket;
  const auto& source = ctx.fixtures().multipart_equal;
  const std::string key = ctx.fixtures().prefix + "checksum-multipart";
  client::put_options create;
  create.checksum_algorithm = "crc32";
  const auto created = client.create_multipart_upload(bucket, key, create);
  ctx.record(created.raw,
             "POST /" + bucket + "/" + key + "?uploads [x-amz-checksum-algorithm: CRC32]");
  if (!created.ok()) {
    ctx.skip("the store refused CreateMultipartUpload with x-amz-checksum-algorithm: " +
             created.raw.describe());
    return;
  }
  std::vector<client::completed_part> parts;
  std::string raw_checksums;
  for (std::size_t number = 1; number <= source.part_count(); ++number) {
    client::upload_part_options options;
    options.checksum_algorithm = "crc32";
    const auto part = ctx.record(
        client.upload_part(bucket, key, created.value->upload_id, static_cast<int>(number),
                           client::body_source::from_view(source.part_bytes(number)), options),
        "PUT /" + bucket + "/" + key + "?partNumber=" + std::to_string(number) +
            " [x-amz-checksum-crc32]");
    const auto value = checksum_of("crc32", source.part_bytes(number));
    raw_checksums += s3::base64_decode(value).value_or("");
    parts.push_back(
        {static_cast<int>(number), std::string(part.header("ETag").value_or("")), value, "crc32"});
  }
  const auto completed =
      client.complete_multipart_upload(bucket, key, created.value->upload_id, parts);
  ctx.record(completed.raw, "POST /" + bucket + "/" + key + "?uploadId=...");
  if (!completed.ok()) {
    client.abort_multipart_upload(bucket, key, created.value->upload_id);
    ctx.skip("the store refused CompleteMultipartUpload with part checksums: " +
             completed.raw.describe());
    return;
  }
  ctx.created_key(key);
  client::get_options options;
  options.checksum_mode = true;
  const auto read = ctx.get_key(bucket, key, options);
  if (read.ok() && !read.has_header("x-amz-checksum-crc32")) {
    ctx.skip("the store does not return x-amz-checksum-crc32 for a multipart object");
    return;
  }
  const std::string composite =
      checksum_of("crc32", raw_checksums) + "-" + std::to_string(source.part_count());
  const std::string full = checksum_of("crc32", source.data);
  const std::string seen(read.header("x-amz-checksum-crc32").value_or(""));
  ctx.expect(seen == composite || seen == full,
             "x-amz-checksum-crc32: " + composite + " (COMPOSITE) or " + full + " (FULL_OBJECT)",
             "x-amz-checksum-crc32: " + (seen.empty() ? std::string("(none)") : seen));
  ctx.expect_body(read, source.data, "GET with checksum mode");
}

} // namespace

void add_checksum_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back(
        {std::move(id), "checksum", std::move(title), strength, std::move(clause), run});
  };
  add("checksum.single-crc32", "A CRC32 sent with a PUT comes back in checksum mode", level::may,
      "With x-amz-checksum-mode: ENABLED, a GET returns x-amz-checksum-<algo> if the object was "
      "uploaded with one",
      check_single_crc32);
  add("checksum.single-sha256", "A SHA-256 sent with a PUT comes back in checksum mode", level::may,
      "With x-amz-checksum-mode: ENABLED, a GET returns x-amz-checksum-<algo> if the object was "
      "uploaded with one",
      check_single_sha256);
  add("checksum.multipart-composite", "A multipart object's CRC32 is the checksum of checksums",
      level::may,
      "for multipart objects it may be a checksum of part checksums (x-amz-checksum-type: "
      "COMPOSITE)",
      check_multipart_composite);
}

} // namespace s3fault::audit
