// CompleteMultipartUpload as a writer retries it (docs/contract.md, "Multipart upload and
// writes"): a writer whose first Complete response was lost sends it again and must learn that
// the object exists, with its ETag; an upload id the store never issued is NoSuchUpload, so a
// writer does not mistake it for a transient failure.
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"

namespace s3fault::audit {
namespace {

/// An upload id no store issued (AWS's are opaque text; this one is unmistakable).
constexpr const char* unknown_upload_id = "s3fault-audit-no-such-upload";

std::string described_etag(const std::string& etag) {
  return etag.empty() ? std::string("(none)") : etag;
}

void check_complete_retry(check_context& ctx) {
  auto& client = ctx.client();
  const auto& bucket = ctx.fixtures().bucket;
  const std::string key = ctx.fixtures().prefix + "complete-retry";
  const std::string data = seeded_bytes(64 * 1024 + 5, 21);
  const std::string target = "/" + bucket + "/" + key;
  const auto created = client.create_multipart_upload(bucket, key);
  ctx.record(created.raw, "POST " + target + "?uploads");
  if (!ctx.expect(created.ok(), "CreateMultipartUpload: 200 with an UploadId",
                  "CreateMultipartUpload: " + created.raw.describe())) {
    return;
  }
  const std::string& upload_id = created.value->upload_id;
  // A copy: record() hands back the reference it was given, here to a temporary.
  const client::response part = ctx.record(
      client.upload_part(bucket, key, upload_id, 1, client::body_source::from_view(data)),
      "PUT " + target + "?partNumber=1&uploadId=...");
  const std::vector<client::completed_part> parts{
      {1, std::string(part.header("ETag").value_or("")), "", ""}};
  const auto first = client.complete_multipart_upload(bucket, key, upload_id, parts);
  ctx.record(first.raw, "POST " + target + "?uploadId=... (the first Complete)");
  if (!ctx.expect(first.ok(), "the first Complete: 200 with a CompleteMultipartUploadResult",
                  "the first Complete: " + first.raw.describe())) {
    client.abort_multipart_upload(bucket, key, upload_id);
    return;
  }
  ctx.created_key(key);
  // The object's ETag as readers see it (the first Complete's <ETag> is judged by
  // etag.complete-result; some stores leave it empty).
  const auto before = ctx.head_key(bucket, key);
  const std::string etag(before.header("ETag").value_or(""));
  const auto retry = client.complete_multipart_upload(bucket, key, upload_id, parts);
  ctx.record(retry.raw, "POST " + target + "?uploadId=... (the same Complete again)");
  ctx.expect_status(retry.raw, 200, "the retried Complete");
  ctx.expect(!retry.raw.error, "the retried Complete: no <Error> body",
             "the retried Complete: " + (retry.raw.error ? "<Error> " + retry.raw.error->code
                                                         : std::string("no <Error> body")));
  ctx.expect(
      retry.value && !etag.empty() && unquoted_etag(retry.value->etag) == unquoted_etag(etag),
      "the retried Complete: <ETag> " + described_etag(etag) + " (the object's, quotes aside)",
      "the retried Complete: <ETag> " +
          (retry.value ? described_etag(retry.value->etag) : std::string("(no result)")));
  const auto read = ctx.get_key(bucket, key);
  ctx.expect_header(read, "ETag", etag, "GET afterwards");
  ctx.expect_body(read, data, "GET afterwards");
}

void check_complete_unknown_upload(check_context& ctx) {
  auto& client = ctx.client();
  const auto& bucket = ctx.fixtures().bucket;
  const std::string key = ctx.fixtures().prefix + "complete-unknown-upload";
  // Should a store complete something anyway, the key is removed with the fixtures.
  ctx.created_key(key);
  const std::vector<client::completed_part> parts{
      {1, md5_etag(ctx.fixtures().one_byte.data), "", ""}};
  const auto completed = client.complete_multipart_upload(bucket, key, unknown_upload_id, parts);
  ctx.record(completed.raw,
             "POST /" + bucket + "/" + key + "?uploadId=" + unknown_upload_id + " (never issued)");
  ctx.expect_error(completed.raw, 404, "NoSuchUpload", "Complete of an upload id never issued");
}

} // namespace

void add_upload_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back(
        {std::move(id), "upload", std::move(title), strength, std::move(clause), run});
  };
  add("upload.complete-retry", "A retried CompleteMultipartUpload answers 200, the same ETag",
      level::should,
      "Retrying CompleteMultipartUpload after it succeeded answers 200 with the same result",
      check_complete_retry);
  add("upload.complete-unknown-upload", "Complete with an unknown upload id answers 404",
      level::must, "an unknown upload id answers 404 NoSuchUpload", check_complete_unknown_upload);
}

} // namespace s3fault::audit
