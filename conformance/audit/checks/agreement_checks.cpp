// Whole-object reads, and HEAD, GET and listings telling the same story (docs/contract.md: a
// plain GET is the reference every part and range read is compared with).
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"
#include "text/http_date.hpp"

namespace s3fault::audit {
namespace {

/// Whether `text` is an IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT") between 2000 and a day
/// from now.
bool is_plausible_http_date(const std::string& text) {
  const auto when = text::parse_http_date(text);
  // Written back the same: the IMF-fixdate form, not the obsolete ones the parser also reads.
  if (!when || text::format_http_date(*when) != text) {
    return false;
  }
  using namespace std::chrono;
  const auto since_2000 = sys_days(year(2000) / January / 1);
  return *when > since_2000 && *when < system_clock::now() + days(1);
}

void check_head_get(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().all()) {
    const auto head = ctx.head(*object);
    const auto get = ctx.get(*object);
    for (const char* name : {"Content-Length", "ETag", "Last-Modified", "Content-Type"}) {
      const auto from_head = head.header(name);
      const auto from_get = get.header(name);
      ctx.expect(from_head && from_get && *from_head == *from_get,
                 object->name + ": the same " + name + " on HEAD and GET",
                 object->name + ": HEAD " + std::string(from_head.value_or("(none)")) + ", GET " +
                     std::string(from_get.value_or("(none)")));
    }
  }
}

void expect_whole_read(check_context& ctx, const fixture& object) {
  const auto get = ctx.get(object);
  ctx.expect_status(get, 200, object.name);
  ctx.expect_header(get, "Content-Length", std::to_string(object.size()), object.name);
  ctx.expect_no_header(get, "Content-Range", object.name);
  ctx.expect_body(get, object.data, object.name);
}

void check_full_get_multipart(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    expect_whole_read(ctx, *object);
  }
}

void check_full_get_single(check_context& ctx) {
  expect_whole_read(ctx, ctx.fixtures().single);
  expect_whole_read(ctx, ctx.fixtures().one_byte);
}

void check_zero_byte_agreement(check_context& ctx) {
  expect_whole_read(ctx, ctx.fixtures().empty);
}

void check_head_length(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().all()) {
    const auto head = ctx.head(*object);
    ctx.expect_status(head, 200, "HEAD " + object->name);
    ctx.expect_header(head, "Content-Length", std::to_string(object->size()),
                      "HEAD " + object->name);
    ctx.expect_no_body(head, "HEAD " + object->name);
  }
}

void check_listing(check_context& ctx) {
  client::list_objects_options options;
  options.prefix = ctx.fixtures().prefix;
  const auto listed = ctx.client().list_objects_v2(ctx.fixtures().bucket, options);
  ctx.record(listed.raw,
             "GET /" + ctx.fixtures().bucket + "?list-type=2&prefix=" + ctx.fixtures().prefix);
  if (!listed.ok()) {
    ctx.expect(false, "ListObjectsV2 answers 200 with a listing",
               listed.raw.describe() +
                   (listed.parse_error.empty() ? "" : ": " + listed.parse_error));
    return;
  }
  for (const fixture* object : ctx.fixtures().all()) {
    const client::object_summary* entry = nullptr;
    for (const auto& candidate : listed.value->contents) {
      if (candidate.key == object->key) {
        entry = &candidate;
      }
    }
    if (!ctx.expect(entry != nullptr, object->name + ": listed", object->name + ": not listed")) {
      continue;
    }
    ctx.expect(entry->size == object->size(),
               object->name + ": <Size>" + std::to_string(object->size()),
               object->name + ": <Size>" + std::to_string(entry->size));
    ctx.expect(entry->etag == object->etag, object->name + ": <ETag>" + object->etag,
               object->name + ": <ETag>" + entry->etag);
  }
}

void check_last_modified(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().all()) {
    const auto head = ctx.head(*object);
    const std::string seen(head.header("Last-Modified").value_or(""));
    ctx.expect(is_plausible_http_date(seen),
               object->name + ": Last-Modified as an IMF-fixdate, not in the future",
               object->name + ": " +
                   (seen.empty() ? "no Last-Modified" : "Last-Modified: " + seen));
  }
}

} // namespace

void add_agreement_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back({std::move(id), "agree", std::move(title), strength, std::move(clause), run});
  };
  add("agree.full-get-multipart", "A full GET of a multipart object is intact", level::must,
      "A full GET of a multipart object: 200, the whole object, no Content-Range",
      check_full_get_multipart);
  add("agree.full-get-single", "A full GET of a single-PUT object is intact", level::must,
      "A full GET: 200, the whole object", check_full_get_single);
  add("agree.zero-byte", "A full GET of a zero-byte object is 200 with no body", level::must,
      "Zero-byte object: length 0", check_zero_byte_agreement);
  add("agree.head-length", "HEAD answers 200 with the object's size and no body", level::must,
      "HEAD: the same headers, no body", check_head_length);
  add("agree.head-get", "HEAD and GET agree on length, ETag, Last-Modified, Content-Type",
      level::must, "HEAD and GET agreeing", check_head_get);
  add("agree.listing", "ListObjectsV2 shows the sizes and ETags HEAD shows", level::should,
      "Readers learn the total from Content-Length", check_listing);
  add("agree.last-modified", "Last-Modified is an HTTP date, not in the future", level::should,
      "If-Modified-Since / If-Unmodified-Since compare with Last-Modified", check_last_modified);
}

} // namespace s3fault::audit
