// partNumber on GET and HEAD: the clauses a part-wise reader depends on (docs/contract.md,
// "partNumber (GET and HEAD)").
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"
#include "text/content_range.hpp"

#include <set>

namespace s3fault::audit {
namespace {

std::string part_label(const fixture& object, std::size_t number) {
  return object.name + " part " + std::to_string(number);
}

std::string part_range(const fixture& object, std::size_t number) {
  const auto first = object.part_offset(number);
  return text::format_content_range(first, first + object.part_sizes[number - 1] - 1,
                                    object.size());
}

/// Runs `look` on a GET of every part of every multipart fixture.
template <class Look> void for_every_part_read(check_context& ctx, Look look) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    for (std::size_t number = 1; number <= object->part_count(); ++number) {
      const auto part = ctx.get_part(*object, static_cast<long>(number));
      look(*object, number, part);
    }
  }
}

/// Runs `look` on a HEAD of every part of every multipart fixture.
template <class Look> void for_every_part_head(check_context& ctx, Look look) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    for (std::size_t number = 1; number <= object->part_count(); ++number) {
      const auto part = ctx.head_part(*object, static_cast<long>(number));
      look(*object, number, part);
    }
  }
}

bool is_invalid_part(const client::response& response) {
  return response.status == 400 && response.error && response.error->code == "InvalidPart";
}

/// 416 InvalidPartNumber, with 400 InvalidPart (ceph s3-tests' expectation) as a deviation.
void expect_part_not_satisfiable(check_context& ctx, const client::response& response,
                                 const std::string& what) {
  if (is_invalid_part(response)) {
    ctx.deviation(what + ": 400 InvalidPart instead of 416 InvalidPartNumber (the answer "
                         "ceph s3-tests expect)");
    return;
  }
  ctx.expect_error(response, 416, "InvalidPartNumber", what);
}

void expect_head_part_not_satisfiable(check_context& ctx, const client::response& response,
                                      const std::string& what) {
  if (response.status == 400) {
    ctx.deviation(what + ": 400 instead of 416 (InvalidPart, the answer ceph s3-tests expect)");
    ctx.expect_no_body(response, what);
    return;
  }
  ctx.expect_head_error(response, 416, what);
}

void check_status(check_context& ctx) {
  for_every_part_read(ctx, [&](const fixture& object, std::size_t number, const auto& part) {
    ctx.expect_status(part, 206, part_label(object, number));
  });
}

void check_content_range(check_context& ctx) {
  for_every_part_read(ctx, [&](const fixture& object, std::size_t number, const auto& part) {
    ctx.expect_header(part, "Content-Range", part_range(object, number),
                      part_label(object, number));
  });
}

void check_content_length(check_context& ctx) {
  for_every_part_read(ctx, [&](const fixture& object, std::size_t number, const auto& part) {
    const auto label = part_label(object, number);
    ctx.expect_header(part, "Content-Length", std::to_string(object.part_sizes[number - 1]), label);
    ctx.expect_body(part, object.part_bytes(number), label);
  });
}

void check_count_header(check_context& ctx) {
  for_every_part_read(ctx, [&](const fixture& object, std::size_t number, const auto& part) {
    ctx.expect_header(part, "x-amz-mp-parts-count", std::to_string(object.part_count()),
                      part_label(object, number));
  });
}

void check_whole_object_etag(check_context& ctx) {
  for_every_part_read(ctx, [&](const fixture& object, std::size_t number, const auto& part) {
    ctx.expect_header(part, "ETag", object.etag, part_label(object, number));
  });
}

void check_accept_ranges(check_context& ctx) {
  for_every_part_read(ctx, [&](const fixture& object, std::size_t number, const auto& part) {
    ctx.expect_header(part, "Accept-Ranges", "bytes", part_label(object, number));
  });
}

void check_reassembly(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    std::string joined;
    for (std::size_t number = 1; number <= object->part_count(); ++number) {
      joined += ctx.get_part(*object, static_cast<long>(number)).body;
    }
    client::response assembled;
    assembled.status = 206;
    assembled.body = joined;
    assembled.body_bytes = joined.size();
    ctx.expect_body(assembled, object->data,
                    object->name + " parts 1.." + std::to_string(object->part_count()) + " joined");
  }
}

void check_totals_agree(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    const auto head = ctx.head(*object);
    const auto length = head.header("Content-Length");
    ctx.expect(length && *length == std::to_string(object->size()),
               object->name + " HEAD: Content-Length " + std::to_string(object->size()),
               object->name + " HEAD: " +
                   (length ? "Content-Length " + std::string(*length) : "no Content-Length"));
    std::set<std::string> totals;
    for (std::size_t number = 1; number <= object->part_count(); ++number) {
      const auto part = ctx.get_part(*object, static_cast<long>(number));
      const auto range = part.header("Content-Range");
      const auto parsed = range ? text::parse_content_range(*range) : std::nullopt;
      // A header that is not "bytes S-E/TOTAL" names no total to compare.
      const std::string total = parsed  ? std::to_string(parsed->total)
                                : range ? "unreadable (" + std::string(*range) + ")"
                                        : "(none)";
      totals.insert(total);
      ctx.expect(total == std::to_string(object->size()),
                 part_label(*object, number) + ": Content-Range total /" +
                     std::to_string(object->size()),
                 part_label(*object, number) + ": total " + total);
    }
    ctx.expect(totals.size() == 1, object->name + ": one total across all parts",
               object->name + ": " + std::to_string(totals.size()) + " different totals");
  }
}

void check_head_part(check_context& ctx) {
  for_every_part_head(ctx, [&](const fixture& object, std::size_t number, const auto& part) {
    const auto label = "HEAD " + part_label(object, number);
    ctx.expect_status(part, 206, label);
    ctx.expect_header(part, "Content-Range", part_range(object, number), label);
    ctx.expect_header(part, "Content-Length", std::to_string(object.part_sizes[number - 1]), label);
    ctx.expect_header(part, "ETag", object.etag, label);
    ctx.expect_no_body(part, label);
  });
}

void check_head_count_header(check_context& ctx) {
  for_every_part_head(ctx, [&](const fixture& object, std::size_t number, const auto& part) {
    ctx.expect_header(part, "x-amz-mp-parts-count", std::to_string(object.part_count()),
                      "HEAD " + part_label(object, number));
  });
}

void check_count_absent_plain(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    ctx.expect_no_header(ctx.get(*object), "x-amz-mp-parts-count", "GET " + object->name);
    ctx.expect_no_header(ctx.head(*object), "x-amz-mp-parts-count", "HEAD " + object->name);
  }
}

void check_count_absent_single(check_context& ctx) {
  for (const fixture* object : {&ctx.fixtures().single, &ctx.fixtures().one_byte}) {
    ctx.expect_no_header(ctx.get_part(*object, 1), "x-amz-mp-parts-count",
                         object->name + " part 1");
  }
}

void check_single_part_one(check_context& ctx) {
  for (const fixture* object : {&ctx.fixtures().single, &ctx.fixtures().one_byte}) {
    const auto part = ctx.get_part(*object, 1);
    const auto label = object->name + " part 1";
    ctx.expect_status(part, 206, label);
    ctx.expect_header(part, "Content-Range",
                      text::format_content_range(0, object->size() - 1, object->size()), label);
    ctx.expect_body(part, object->data, label);
  }
}

void check_single_part_two(check_context& ctx) {
  const auto& object = ctx.fixtures().single;
  expect_part_not_satisfiable(ctx, ctx.get_part(object, 2), object.name + " part 2");
}

void check_zero_byte_part_number(check_context& ctx) {
  const auto& object = ctx.fixtures().empty;
  const auto part = ctx.get_part(object, 1);
  const auto label = object.name + " part 1";
  ctx.expect(part.status == 200 || part.status == 206, label + ": a success status",
             label + ": status " + std::to_string(part.status));
  ctx.expect_no_header(part, "Content-Range", label);
  ctx.expect_header(part, "Content-Length", "0", label);
  ctx.expect_no_body(part, label);
}

void check_past_count(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    const auto past = static_cast<long>(object->part_count() + 1);
    expect_part_not_satisfiable(ctx, ctx.get_part(*object, past),
                                object->name + " part " + std::to_string(past));
  }
}

void check_head_past_count(check_context& ctx) {
  for (const fixture* object : ctx.fixtures().multipart()) {
    const auto past = static_cast<long>(object->part_count() + 1);
    expect_head_part_not_satisfiable(ctx, ctx.head_part(*object, past),
                                     "HEAD " + object->name + " part " + std::to_string(past));
  }
}

void check_highest_number(check_context& ctx) {
  const auto& object = ctx.fixtures().multipart_uneven;
  expect_part_not_satisfiable(ctx, ctx.get_part(object, 10000), object.name + " part 10000");
}

/// GET with ?partNumber=<text> (sent as is).
client::response get_with_part_text(check_context& ctx, const fixture& object, std::string text) {
  client::get_options options;
  options.extra_query.push_back({"partNumber", std::move(text)});
  return ctx.get(object, options);
}

void check_number_zero(check_context& ctx) {
  const auto& object = ctx.fixtures().multipart_uneven;
  ctx.expect_error(get_with_part_text(ctx, object, "0"), 400, "InvalidArgument", "partNumber=0");
}

void check_number_over_limit(check_context& ctx) {
  const auto& object = ctx.fixtures().multipart_uneven;
  ctx.expect_error(get_with_part_text(ctx, object, "10001"), 400, "InvalidArgument",
                   "partNumber=10001");
}

void check_number_not_integer(check_context& ctx) {
  const auto& object = ctx.fixtures().multipart_uneven;
  for (const char* text : {"abc", "1.5", "-1"}) {
    ctx.expect_error(get_with_part_text(ctx, object, text), 400, "InvalidArgument",
                     std::string("partNumber=") + text);
  }
}

void check_with_range(check_context& ctx) {
  const auto& object = ctx.fixtures().multipart_uneven;
  client::get_options options;
  options.range = client::byte_range(0, 9);
  ctx.expect_error(ctx.get_part(object, 1, options), 400, "InvalidRequest",
                   "partNumber=1 with Range: bytes=0-9");
}

void check_incomplete_upload(check_context& ctx) {
  auto& client = ctx.client();
  const auto& bucket = ctx.fixtures().bucket;
  const std::string key = ctx.fixtures().prefix + "incomplete-upload";
  const auto created = client.create_multipart_upload(bucket, key);
  ctx.record(created.raw, "POST /" + bucket + "/" + key + "?uploads");
  if (!created.ok()) {
    ctx.error("CreateMultipartUpload failed: " + created.raw.describe());
    return;
  }
  const auto& upload_id = created.value->upload_id;
  ctx.record(client.upload_part(bucket, key, upload_id, 1,
                                client::body_source::from_string(std::string(1024, 'p'))),
             "PUT /" + bucket + "/" + key + "?partNumber=1&uploadId=...");
  client::get_options options;
  options.part_number = 1;
  ctx.expect_error(ctx.get_key(bucket, key, options), 404, "NoSuchKey",
                   "part 1 of an upload not yet completed");
  ctx.record(client.abort_multipart_upload(bucket, key, upload_id),
             "DELETE /" + bucket + "/" + key + "?uploadId=...");
}

} // namespace

void add_part_number_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back({std::move(id), "part", std::move(title), strength, std::move(clause), run});
  };
  add("part.status", "Every part read answers 206 Partial Content", level::must,
      "Response for a multipart object: 206 Partial Content", check_status);
  add("part.content-range", "Every part read names its bytes and the object's total", level::must,
      "Content-Range: bytes S-E/TOTAL (TOTAL is the whole object's size)", check_content_range);
  add("part.content-length", "Every part read is exactly the part's bytes", level::must,
      "Content-Length = the part's size; it behaves like a ranged GET over that part's bytes",
      check_content_length);
  add("part.count-header", "Every part read sends x-amz-mp-parts-count", level::must,
      "x-amz-mp-parts-count: <number of parts>", check_count_header);
  add("part.whole-object-etag", "Part reads carry the whole object's ETag", level::must,
      "ETag = the WHOLE object's ETag (not the part's)", check_whole_object_etag);
  add("part.accept-ranges", "Part reads send Accept-Ranges: bytes", level::should,
      "Accept-Ranges: bytes", check_accept_ranges);
  add("part.reassembly", "The parts joined are the object, byte for byte", level::must,
      "?partNumber=N reads part N of an object uploaded by multipart upload", check_reassembly);
  add("part.totals-agree", "Every part names the same total, the object's size", level::must,
      "TOTAL is the whole object's size", check_totals_agree);
  add("part.head", "HEAD with partNumber sends the part's headers and no body", level::must,
      "HEAD with partNumber: the same headers, no body", check_head_part);
  add("part.head-count-header", "HEAD with partNumber sends x-amz-mp-parts-count", level::must,
      "HEAD with partNumber ... is how a reader learns a part's size and the part count",
      check_head_count_header);
  add("part.count-absent-plain", "No parts count on a GET or HEAD without partNumber",
      level::should,
      "x-amz-mp-parts-count is sent only when the request named partNumber; absent on a plain GET",
      check_count_absent_plain);
  add("part.count-absent-single", "No parts count for an object not uploaded in parts",
      level::should, "x-amz-mp-parts-count ... absent for a non-multipart object",
      check_count_absent_single);
  add("part.single-object-part-one", "partNumber=1 of a single-PUT object is the whole object",
      level::must,
      "Non-multipart object, partNumber=1: 206 with the whole object and a full Content-Range",
      check_single_part_one);
  add("part.single-object-part-two", "partNumber=2 of a single-PUT object is refused", level::must,
      "partNumber>=2 on such an object: error (416 InvalidPartNumber)", check_single_part_two);
  add("part.zero-byte", "partNumber=1 of a zero-byte object succeeds with no Content-Range",
      level::must, "Zero-byte object, partNumber=1: success, no Content-Range, length 0",
      check_zero_byte_part_number);
  add("part.past-count", "A part past the count answers 416 InvalidPartNumber", level::must,
      "N greater than the part count: 416, code InvalidPartNumber", check_past_count);
  add("part.head-past-count", "HEAD of a part past the count answers 416", level::must,
      "N greater than the part count: 416 (HEAD: the same status, no body)", check_head_past_count);
  add("part.highest-number", "partNumber=10000 of a 3-part object answers 416", level::must,
      "N in 1..10000 ... N greater than the part count: 416 InvalidPartNumber",
      check_highest_number);
  add("part.number-zero", "partNumber=0 answers 400 InvalidArgument", level::must,
      "N not an integer in 1..10000: 400 InvalidArgument", check_number_zero);
  add("part.number-over-limit", "partNumber=10001 answers 400 InvalidArgument", level::must,
      "N not an integer in 1..10000: 400 InvalidArgument", check_number_over_limit);
  add("part.number-not-integer", "partNumber=abc, 1.5, -1 answer 400 InvalidArgument", level::must,
      "N not an integer in 1..10000: 400 InvalidArgument", check_number_not_integer);
  add("part.with-range", "partNumber with a Range header answers 400 InvalidRequest", level::must,
      "partNumber together with a Range header: 400 InvalidRequest", check_with_range);
  add("part.incomplete-upload", "partNumber of an upload not yet completed answers 404 NoSuchKey",
      level::must, "partNumber on an upload that is not yet completed: 404 NoSuchKey",
      check_incomplete_upload);
}

} // namespace s3fault::audit
