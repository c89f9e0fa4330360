// Range on GET and HEAD: the clauses a range-wise reader depends on (docs/contract.md, "Range").
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"
#include "text/content_range.hpp"

namespace s3fault::audit {
namespace {

/// GET with `range`; expects 206, the Content-Range and the bytes first..last.
void expect_range_read(check_context& ctx, const fixture& object, const std::string& range,
                       std::uint64_t first, std::uint64_t last) {
  client::get_options options;
  options.range = range;
  const auto read = ctx.get(object, options);
  const auto label = object.name + " " + range;
  ctx.expect_status(read, 206, label);
  ctx.expect_header(read, "Content-Range", text::format_content_range(first, last, object.size()),
                    label);
  ctx.expect_header(read, "Content-Length", std::to_string(last - first + 1), label);
  ctx.expect_body(read, std::string_view(object.data).substr(first, last - first + 1), label);
}

void expect_range_refused(check_context& ctx, const fixture& object, const std::string& range) {
  client::get_options options;
  options.range = range;
  ctx.expect_error(ctx.get(object, options), 416, "InvalidRange", object.name + " " + range);
}

void check_closed(check_context& ctx) {
  const auto& object = ctx.fixtures().single;
  expect_range_read(ctx, object, client::byte_range(100, 1099), 100, 1099);
}

void check_open_ended(check_context& ctx) {
  const auto& object = ctx.fixtures().single;
  const auto first = object.size() - 500;
  expect_range_read(ctx, object, client::byte_range_from(first), first, object.size() - 1);
}

void check_suffix(check_context& ctx) {
  const auto& object = ctx.fixtures().single;
  expect_range_read(ctx, object, client::byte_range_suffix(500), object.size() - 500,
                    object.size() - 1);
}

void check_end_clamped(check_context& ctx) {
  const auto& object = ctx.fixtures().single;
  const auto first = object.size() - 10;
  expect_range_read(ctx, object, client::byte_range(first, object.size() + 1000), first,
                    object.size() - 1);
}

void check_suffix_longer(check_context& ctx) {
  const auto& object = ctx.fixtures().single;
  expect_range_read(ctx, object, client::byte_range_suffix(object.size() + 100), 0,
                    object.size() - 1);
}

void check_last_byte(check_context& ctx) {
  const auto& object = ctx.fixtures().single;
  const auto last = object.size() - 1;
  expect_range_read(ctx, object, client::byte_range(last, last), last, last);
}

void check_one_byte_object(check_context& ctx) {
  const auto& object = ctx.fixtures().one_byte;
  expect_range_read(ctx, object, client::byte_range(0, 0), 0, 0);
  expect_range_read(ctx, object, client::byte_range_suffix(1), 0, 0);
}

void check_across_parts(check_context& ctx) {
  const auto& object = ctx.fixtures().multipart_uneven;
  const auto boundary = object.part_offset(2);
  expect_range_read(ctx, object, client::byte_range(boundary - 100, boundary + 99), boundary - 100,
                    boundary + 99);
  const auto second = object.part_offset(3);
  expect_range_read(ctx, object, client::byte_range(boundary - 1, second), boundary - 1, second);
}

void check_multipart_suffix_range(check_context& ctx) {
  const auto& object = ctx.fixtures().multipart_uneven;
  const auto length = object.part_sizes.back() + 1000;
  expect_range_read(ctx, object, client::byte_range_suffix(length), object.size() - length,
                    object.size() - 1);
}

void check_start_past_end(check_context& ctx) {
  const auto& object = ctx.fixtures().single;
  expect_range_refused(ctx, object, client::byte_range_from(object.size() + 10));
}

void check_start_at_end(check_context& ctx) {
  const auto& object = ctx.fixtures().single;
  expect_range_refused(ctx, object, client::byte_range(object.size(), object.size() + 10));
}

void check_zero_byte_range(check_context& ctx) {
  const auto& object = ctx.fixtures().empty;
  expect_range_refused(ctx, object, client::byte_range(0, 0));
  expect_range_refused(ctx, object, client::byte_range_from(0));
  expect_range_refused(ctx, object, client::byte_range_suffix(1));
}

void check_head_ignores_range(check_context& ctx) {
  const auto& object = ctx.fixtures().single;
  client::get_options options;
  options.range = client::byte_range(0, 9);
  const auto head = ctx.head(object, options);
  const auto label = "HEAD " + object.name + " " + options.range;
  ctx.expect_status(head, 200, label);
  ctx.expect_header(head, "Content-Length", std::to_string(object.size()), label);
  ctx.expect_no_header(head, "Content-Range", label);
}

void check_full_read_accept_ranges(check_context& ctx) {
  for (const fixture* object : {&ctx.fixtures().single, &ctx.fixtures().multipart_uneven}) {
    ctx.expect_header(ctx.head(*object), "Accept-Ranges", "bytes", "HEAD " + object->name);
  }
}

} // namespace

void add_range_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back({std::move(id), "range", std::move(title), strength, std::move(clause), run});
  };
  add("range.closed", "bytes=A-B reads exactly A..B", level::must,
      "bytes=A-B: 206 with Content-Range: bytes A-B/TOTAL", check_closed);
  add("range.open-ended", "bytes=A- reads from A to the end", level::must,
      "bytes=A-: 206 with Content-Range: bytes A-B/TOTAL", check_open_ended);
  add("range.suffix", "bytes=-N reads the last N bytes", level::must,
      "bytes=-N: 206 with Content-Range: bytes A-B/TOTAL", check_suffix);
  add("range.end-clamped", "An end past the object's end is clamped", level::must,
      "An end past the object's end is clamped", check_end_clamped);
  add("range.suffix-longer", "A suffix longer than the object reads the whole object", level::must,
      "A suffix longer than the object returns the whole object", check_suffix_longer);
  add("range.last-byte", "bytes=L-L reads the last byte", level::must,
      "One range per request; 206 with Content-Range: bytes A-B/TOTAL", check_last_byte);
  add("range.one-byte-object", "Ranges over a one-byte object", level::must,
      "206 with Content-Range: bytes A-B/TOTAL", check_one_byte_object);
  add("range.across-parts", "A range across part boundaries of a multipart object", level::must,
      "One range per request; 206 with Content-Range: bytes A-B/TOTAL", check_across_parts);
  add("range.multipart-suffix", "A suffix longer than the last part of a multipart object",
      level::must, "bytes=-N: 206 with Content-Range: bytes A-B/TOTAL",
      check_multipart_suffix_range);
  add("range.start-past-end", "A start past the end answers 416 InvalidRange", level::must,
      "A start at or past the end: 416, code InvalidRange", check_start_past_end);
  add("range.start-at-end", "A start at the end answers 416 InvalidRange", level::must,
      "A start at or past the end: 416, code InvalidRange", check_start_at_end);
  add("range.zero-byte", "Any range on a zero-byte object answers 416 InvalidRange", level::must,
      "Any range on a zero-byte object: 416", check_zero_byte_range);
  add("range.head-ignored", "HEAD ignores Range", level::should, "HEAD ignores Range",
      check_head_ignores_range);
  add("range.accept-ranges", "HEAD sends Accept-Ranges: bytes", level::should,
      "Accept-Ranges: bytes (readers learn ranged reads are possible)",
      check_full_read_accept_ranges);
}

} // namespace s3fault::audit
