// GetObjectAttributes (docs/contract.md, "Multipart upload and writes"), an optional feature: a
// second way for a reader to learn an object's part layout, which must agree with what
// `?partNumber=N` reads return. Per AWS, ObjectParts always carries the part count of a
// multipart object (<PartsCount>, TotalPartsCount in the SDKs) but lists the <Part> elements
// only when the object was uploaded with additional checksums; so each check uploads its own
// object with CRC32 part checksums (or without, where the store refuses them).
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"

#include "conformance/s3/hashing.hpp"

namespace s3fault::audit {
namespace {

/// What a check uploaded: two parts of uneven size.
struct attributes_subject {
  std::string key;
  std::string data;
  std::vector<std::uint64_t> part_sizes{5ull * 1024 * 1024, 300 * 1024 + 11};
  std::string etag;            // HEAD's after the upload
  bool with_checksums = false; // uploaded with CRC32 part checksums

  std::string_view part(std::size_t number) const {
    return std::string_view(data).substr(number == 1 ? 0 : part_sizes[0], part_sizes[number - 1]);
  }
};

std::string crc32_of(std::string_view bytes) {
  auto sum = s3::checksum::create("crc32");
  sum->update(bytes);
  return sum->base64_digest();
}

/// One multipart upload of `subject`, with CRC32 part checksums when asked. False when the
/// store refused it (the upload is aborted).
bool upload(check_context& ctx, attributes_subject& subject, bool with_checksums) {
  auto& client = ctx.client();
  const auto& bucket = ctx.fixtures().bucket;
  const std::string target = "/" + bucket + "/" + subject.key;
  const std::string note = with_checksums ? " [CRC32 part checksums]" : "";
  client::put_options create;
  if (with_checksums) {
    create.checksum_algorithm = "crc32";
  }
  const auto created = client.create_multipart_upload(bucket, subject.key, create);
  ctx.record(created.raw, "POST " + target + "?uploads" + note);
  if (!created.ok()) {
    return false;
  }
  std::vector<client::completed_part> parts;
  for (std::size_t number = 1; number <= subject.part_sizes.size(); ++number) {
    client::upload_part_options options;
    if (with_checksums) {
      options.checksum_algorithm = "crc32";
    }
    // A copy: record() hands back the reference it was given, here to a temporary.
    const client::response part = ctx.record(
        client.upload_part(bucket, subject.key, created.value->upload_id, static_cast<int>(number),
                           client::body_source::from_view(subject.part(number)), options),
        "PUT " + target + "?partNumber=" + std::to_string(number) + "&uploadId=..." + note);
    parts.push_back({static_cast<int>(number), std::string(part.header("ETag").value_or("")),
                     with_checksums ? crc32_of(subject.part(number)) : "",
                     with_checksums ? "crc32" : ""});
  }
  const auto completed =
      client.complete_multipart_upload(bucket, subject.key, created.value->upload_id, parts);
  ctx.record(completed.raw, "POST " + target + "?uploadId=..." + note);
  if (!completed.ok()) {
    client.abort_multipart_upload(bucket, subject.key, created.value->upload_id);
    return false;
  }
  // The ETag readers see (a Complete's <ETag> may be empty; etag.complete-result judges that).
  subject.etag = std::string(ctx.head_key(bucket, subject.key).header("ETag").value_or(""));
  subject.with_checksums = with_checksums;
  return true;
}

/// The check's object: with checksums where the store takes them, else without.
std::optional<attributes_subject> upload_subject(check_context& ctx, const std::string& name) {
  attributes_subject subject;
  subject.key = ctx.fixtures().prefix + name;
  subject.data = seeded_bytes(subject.part_sizes[0] + subject.part_sizes[1], 41);
  ctx.created_key(subject.key);
  if (upload(ctx, subject, true) || upload(ctx, subject, false)) {
    return subject;
  }
  ctx.expect(false, "a multipart upload of " + name, "the store refused it (see the exchanges)");
  return std::nullopt;
}

/// GetObjectAttributes of the subject; nullopt (with SKIP recorded) when the store does not
/// implement it: 405/501/NotImplemented, the object's bytes in place of the document (the
/// store ignored ?attributes), or no ObjectParts for a multipart object.
std::optional<client::object_attributes_result>
attributes_of(check_context& ctx, const attributes_subject& subject,
              const client::object_attributes_options& options, const std::string& note) {
  auto& client = ctx.client();
  const auto& bucket = ctx.fixtures().bucket;
  const auto answer = client.get_object_attributes(bucket, subject.key, options);
  ctx.record(answer.raw, "GET /" + bucket + "/" + subject.key + "?attributes [" + note + "]");
  const auto& raw = answer.raw;
  const bool refused =
      raw.status == 405 || raw.status == 501 || (raw.error && raw.error->code == "NotImplemented");
  const bool ignored = raw.ok() && !answer.value && raw.body_bytes == subject.data.size();
  if (refused || ignored) {
    ctx.skip(refused ? "GetObjectAttributes is not implemented: " + raw.describe()
                     : "GetObjectAttributes is not implemented: ?attributes answered the object");
    return std::nullopt;
  }
  if (!ctx.expect(answer.ok(), "GetObjectAttributes: 200 with a GetObjectAttributesResponse",
                  "GetObjectAttributes: " +
                      (answer.parse_error.empty() ? raw.describe() : answer.parse_error))) {
    return std::nullopt;
  }
  if (!answer.value->has_object_parts) {
    ctx.skip("GetObjectAttributes answers no ObjectParts for a multipart object");
    return std::nullopt;
  }
  if (answer.value->parts_count_element == "TotalPartsCount") {
    ctx.deviation("the part count in <TotalPartsCount>, where AWS (and the SDKs) use <PartsCount>");
  }
  return answer.value;
}

std::string observed_number(const std::optional<std::uint64_t>& value, std::string_view what) {
  return value ? std::string(what) + " " + std::to_string(*value) : "no " + std::string(what);
}

void check_parts_agree(check_context& ctx) {
  const auto subject = upload_subject(ctx, "attributes-multipart");
  if (!subject) {
    return;
  }
  const auto attributes = attributes_of(ctx, *subject, {}, "x-amz-object-attributes: all five");
  if (!attributes) {
    return;
  }
  const auto count = subject->part_sizes.size();
  ctx.expect(attributes->object_size == subject->data.size(),
             "ObjectSize " + std::to_string(subject->data.size()),
             observed_number(attributes->object_size, "ObjectSize"));
  ctx.expect(unquoted_etag(attributes->etag) == unquoted_etag(subject->etag),
             "ETag " + unquoted_etag(subject->etag) + " (quotes aside)",
             attributes->etag.empty() ? "no ETag" : "ETag " + attributes->etag);
  ctx.expect(attributes->parts_count == count, "ObjectParts: PartsCount " + std::to_string(count),
             "ObjectParts: " + observed_number(attributes->parts_count, "PartsCount"));
  // Parts are listed for an object with checksums; a store that kept none need not list them.
  const bool parts_required = subject->with_checksums && !attributes->checksums.empty();
  if (parts_required || !attributes->parts.empty()) {
    ctx.expect(attributes->parts.size() == count,
               "ObjectParts: " + std::to_string(count) + " <Part> elements",
               "ObjectParts: " + std::to_string(attributes->parts.size()) + " <Part> elements");
  }
  for (std::size_t number = 1; number <= count; ++number) {
    const auto read = ctx.head_key(ctx.fixtures().bucket, subject->key, [number] {
      client::get_options options;
      options.part_number = static_cast<long>(number);
      return options;
    }());
    const std::string label = "HEAD ?partNumber=" + std::to_string(number);
    const std::string length(read.header("Content-Length").value_or(""));
    ctx.expect_header(read, "Content-Length", std::to_string(subject->part_sizes[number - 1]),
                      label);
    if (attributes->parts_count) {
      ctx.expect_header(read, "x-amz-mp-parts-count", std::to_string(*attributes->parts_count),
                        label + " (= ObjectParts PartsCount)");
    }
    for (const auto& part : attributes->parts) {
      if (part.part_number == static_cast<int>(number)) {
        ctx.expect(std::to_string(part.size) == length,
                   "ObjectParts part " + std::to_string(number) + ": Size = the part read's " +
                       "Content-Length " + (length.empty() ? "(none)" : length),
                   "ObjectParts part " + std::to_string(number) + ": Size " +
                       std::to_string(part.size));
      }
    }
  }
}

void check_parts_pagination(check_context& ctx) {
  const auto subject = upload_subject(ctx, "attributes-pages");
  if (!subject) {
    return;
  }
  client::object_attributes_options first_page;
  first_page.attributes = "ObjectParts";
  first_page.max_parts = 1;
  const auto first = attributes_of(ctx, *subject, first_page, "ObjectParts, x-amz-max-parts: 1");
  if (!first) {
    return;
  }
  if (first->parts.empty()) {
    ctx.skip(subject->with_checksums
                 ? "GetObjectAttributes lists no <Part> although the parts carried CRC32 checksums"
                 : "the store refused part checksums, and AWS lists <Part> only with them");
    return;
  }
  const auto numbers = [](const client::object_attributes_result& page) {
    std::string text;
    for (const auto& part : page.parts) {
      text += (text.empty() ? "" : ",") + std::to_string(part.part_number);
    }
    return text.empty() ? std::string("none") : text;
  };
  ctx.expect(numbers(*first) == "1", "page 1 (MaxParts 1): part 1",
             "page 1 (MaxParts 1): parts " + numbers(*first));
  ctx.expect(first->is_truncated, "page 1: IsTruncated true", "page 1: IsTruncated false");
  ctx.expect(first->next_part_number_marker == "1", "page 1: NextPartNumberMarker 1",
             "page 1: NextPartNumberMarker " + (first->next_part_number_marker.empty()
                                                    ? std::string("(none)")
                                                    : first->next_part_number_marker));
  client::object_attributes_options second_page = first_page;
  second_page.part_number_marker =
      first->next_part_number_marker.empty() ? "1" : first->next_part_number_marker;
  const auto second = attributes_of(ctx, *subject, second_page,
                                    "ObjectParts, x-amz-max-parts: 1, x-amz-part-number-marker: " +
                                        second_page.part_number_marker);
  if (!second) {
    return;
  }
  ctx.expect(numbers(*second) == "2", "page 2 (PartNumberMarker 1): part 2",
             "page 2 (PartNumberMarker 1): parts " + numbers(*second));
  ctx.expect(!second->is_truncated, "page 2: IsTruncated false", "page 2: IsTruncated true");
  for (const auto& part : second->parts) {
    ctx.expect(part.size == subject->part_sizes[1],
               "page 2: part 2 Size " + std::to_string(subject->part_sizes[1]),
               "page 2: part " + std::to_string(part.part_number) + " Size " +
                   std::to_string(part.size));
  }
}

} // namespace

void add_attributes_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back({std::move(id), "attrs", std::move(title), strength, std::move(clause), run});
  };
  add("attrs.parts-agree", "GetObjectAttributes agrees with partNumber reads and the size",
      level::must,
      "GetObjectAttributes ... returns ... ObjectParts (TotalPartsCount, parts with sizes, "
      "paginated), ObjectSize ...: [it] must agree with ?partNumber= reads",
      check_parts_agree);
  add("attrs.parts-pagination", "GetObjectAttributes pages parts with MaxParts and a marker",
      level::should,
      "ObjectParts (TotalPartsCount, parts with sizes, paginated): x-amz-max-parts and "
      "x-amz-part-number-marker",
      check_parts_pagination);
}

} // namespace s3fault::audit
