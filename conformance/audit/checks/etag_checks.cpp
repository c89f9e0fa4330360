// ETag formats (docs/contract.md, "ETag"): what a reader can compare, and what If-Match guards.
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"

namespace s3fault::audit {
namespace {

bool is_quoted(std::string_view value) {
  return value.size() >= 2 && value.front() == '"' && value.back() == '"';
}

std::string observed_etag(const client::response& response) {
  const auto etag = response.header("ETag");
  return etag ? "ETag: " + std::string(*etag) : std::string("no ETag");
}

void check_single_put_md5(check_context& ctx) {
  for (const fixture* object : {&ctx.fixtures().single, &ctx.fixtures().one_byte}) {
    ctx.expect_header(ctx.head(*object), "ETag", md5_etag(object->data), "HEAD " + object->name);
  }
}

void check_zero_byte_etag(check_context& ctx) {
  const auto& object = ctx.fixtures().empty;
  ctx.expect_header(ctx.head(object), "ETag", "\"d41d8cd98f00b204e9800998ecf8427e\"",
                    "HEAD " + object.name);
}

void check_put_response(check_context& ctx) {
  for (const fixture* object :
       {&ctx.fixtures().single, &ctx.fixtures().one_byte, &ctx.fixtures().empty}) {
    for (const auto& exchange : object->upload_exchanges) {
      ctx.cite(exchange);
    }
    ctx.expect(object->upload_etag == object->etag,
               object->name + ": PUT response ETag = HEAD ETag " + object->etag,
               object->name + ": PUT response ETag " +
                   (object->upload_etag.empty() ? "(none)" : object->upload_etag));
  }
}

void check_quoted(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().all()) {
    const auto get = ctx.get(*object);
    const auto head = ctx.head(*object);
    ctx.expect(is_quoted(get.header("ETag").value_or("")), "GET " + object->name + ": quoted ETag",
               "GET " + object->name + ": " + observed_etag(get));
    ctx.expect(is_quoted(head.header("ETag").value_or("")),
               "HEAD " + object->name + ": quoted ETag",
               "HEAD " + object->name + ": " + observed_etag(head));
  }
}

void check_multipart_md5_of_md5s(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    ctx.expect_header(ctx.head(*object), "ETag", multipart_etag(*object), "HEAD " + object->name);
  }
}

void check_multipart_etag_suffix(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    const auto head = ctx.head(*object);
    const std::string etag(head.header("ETag").value_or(""));
    const std::string suffix = "-" + std::to_string(object->part_count()) + "\"";
    const bool met = etag.size() > suffix.size() &&
                     etag.compare(etag.size() - suffix.size(), suffix.size(), suffix) == 0;
    ctx.expect(met,
               "HEAD " + object->name + ": ETag ending in -" + std::to_string(object->part_count()),
               "HEAD " + object->name + ": " + observed_etag(head));
  }
}

void check_multipart_not_body_md5(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    const auto head = ctx.head(*object);
    const std::string etag(head.header("ETag").value_or(""));
    ctx.expect(!etag.empty() && etag != md5_etag(object->data),
               "HEAD " + object->name + ": an ETag that is not the body's MD5",
               "HEAD " + object->name + ": " + observed_etag(head) +
                   (etag == md5_etag(object->data) ? " (the body's MD5)" : ""));
  }
}

void check_complete_result(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    ctx.cite(object->upload_exchanges.back());
    ctx.expect(object->upload_etag == object->etag,
               object->name + ": CompleteMultipartUpload <ETag> = HEAD ETag " + object->etag,
               object->name + ": CompleteMultipartUpload <ETag> " +
                   (object->upload_etag.empty() ? "(empty)" : object->upload_etag));
  }
}

void check_upload_part_md5(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    for (std::size_t number = 1; number <= object->part_count(); ++number) {
      ctx.cite(object->upload_exchanges[number - 1]);
      const auto expected = md5_etag(object->part_bytes(number));
      const auto& seen = object->part_etags[number - 1];
      ctx.expect(seen == expected,
                 object->name + " UploadPart " + std::to_string(number) + ": ETag " + expected,
                 object->name + " UploadPart " + std::to_string(number) + ": ETag " +
                     (seen.empty() ? "(none)" : seen));
    }
  }
}

void check_changes_with_content(check_context& ctx) {
  auto& client = ctx.client();
  const auto& bucket = ctx.fixtures().bucket;
  const std::string key = ctx.fixtures().prefix + "overwritten";
  ctx.created_key(key);
  const std::string first = seeded_bytes(4096, 1), second = seeded_bytes(4096, 2);
  ctx.record(client.put_object(bucket, key, client::body_source::from_view(first)),
             "PUT /" + bucket + "/" + key + " (4096 bytes)");
  const auto before = ctx.head_key(bucket, key);
  ctx.record(client.put_object(bucket, key, client::body_source::from_view(second)),
             "PUT /" + bucket + "/" + key + " (4096 other bytes)");
  const auto after = ctx.head_key(bucket, key);
  const std::string old_etag(before.header("ETag").value_or(""));
  ctx.expect(!old_etag.empty() && after.header("ETag").value_or("") != old_etag,
             "a different ETag after the object was replaced",
             "before: " + observed_etag(before) + ", after: " + observed_etag(after));
  client::get_options options;
  options.if_match = old_etag;
  ctx.expect_error(ctx.get_key(bucket, key, options), 412, "PreconditionFailed",
                   "If-Match: the ETag before the replacement");
}

} // namespace

void add_etag_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back({std::move(id), "etag", std::move(title), strength, std::move(clause), run});
  };
  add("etag.single-put-md5", "A single PUT's ETag is the quoted MD5 of its body", level::must,
      "Single PUT (no SSE-KMS/SSE-C): hex MD5 of the body, in quotes", check_single_put_md5);
  add("etag.zero-byte", "A zero-byte object's ETag is the MD5 of nothing", level::must,
      "Single PUT: hex MD5 of the body, in quotes", check_zero_byte_etag);
  add("etag.put-response", "PUT answers with the ETag that HEAD later shows", level::must,
      "Single PUT: hex MD5 of the body, in quotes", check_put_response);
  add("etag.quoted", "ETags on GET and HEAD are quoted", level::must,
      "hex MD5 of the body, in quotes", check_quoted);
  add("etag.multipart-md5-of-md5s", "A multipart ETag is MD5 of the part MD5s, then -N",
      level::should, "De facto: hex(md5(concat(binary md5 of each part)))-N, N = part count",
      check_multipart_md5_of_md5s);
  add("etag.multipart-suffix", "A multipart ETag ends in -N, N the part count", level::should,
      "N = part count", check_multipart_etag_suffix);
  add("etag.multipart-not-body-md5", "A multipart ETag is not the MD5 of the body", level::should,
      "Multipart: not an MD5 of the body", check_multipart_not_body_md5);
  add("etag.complete-result", "CompleteMultipartUpload answers with the object's ETag",
      level::should, "Multipart: hex(md5(concat(binary md5 of each part)))-N",
      check_complete_result);
  add("etag.upload-part-md5", "UploadPart answers with the quoted MD5 of the part", level::should,
      "binary md5 of each part", check_upload_part_md5);
  add("etag.changes-with-content", "Replacing an object changes its ETag; If-Match sees it",
      level::must, "Readers can use it to detect a changed object between part reads (If-Match)",
      check_changes_with_content);
}

} // namespace s3fault::audit
