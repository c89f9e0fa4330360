// Conditional GET and HEAD (S3-CONTRACT.md, "Conditional requests"). A robust part-wise reader
// sends If-Match with the whole object's ETag on later part reads, so those are checked too.
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"

namespace s3fault::audit {
namespace {

constexpr const char* long_ago = "Sat, 01 Jan 2000 00:00:00 GMT";
constexpr const char* other_etag = "\"00000000000000000000000000000000\"";

const fixture& subject(check_context& ctx) {
  return ctx.fixtures().single;
}

void expect_full_read(check_context& ctx, const client::response& read, const fixture& object,
                      const std::string& label) {
  ctx.expect_status(read, 200, label);
  ctx.expect_body(read, object.data, label);
}

void expect_not_modified(check_context& ctx, const client::response& read,
                         const std::string& label) {
  ctx.expect_status(read, 304, label);
  ctx.expect_no_body(read, label);
}

void check_if_match_true(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_match = object.etag;
  expect_full_read(ctx, ctx.get(object, options), object, "If-Match: its ETag");
}

void check_if_match_false(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_match = other_etag;
  ctx.expect_error(ctx.get(object, options), 412, "PreconditionFailed", "If-Match: another ETag");
}

void check_if_none_match_true(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_none_match = object.etag;
  expect_not_modified(ctx, ctx.get(object, options), "If-None-Match: its ETag");
}

void check_if_none_match_false(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_none_match = other_etag;
  expect_full_read(ctx, ctx.get(object, options), object, "If-None-Match: another ETag");
}

void check_if_modified_since_unmodified(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_modified_since = object.last_modified;
  expect_not_modified(ctx, ctx.get(object, options), "If-Modified-Since: its Last-Modified");
}

void check_if_modified_since_modified(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_modified_since = long_ago;
  expect_full_read(ctx, ctx.get(object, options), object, "If-Modified-Since: year 2000");
}

void check_if_unmodified_since_modified(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_unmodified_since = long_ago;
  ctx.expect_error(ctx.get(object, options), 412, "PreconditionFailed",
                   "If-Unmodified-Since: year 2000");
}

void check_if_unmodified_since_unmodified(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_unmodified_since = object.last_modified;
  expect_full_read(ctx, ctx.get(object, options), object, "If-Unmodified-Since: its Last-Modified");
}

void check_if_match_wins(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_match = object.etag;
  options.if_unmodified_since = long_ago;
  expect_full_read(ctx, ctx.get(object, options), object,
                   "If-Match true + If-Unmodified-Since false");
}

void check_if_none_match_wins(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_none_match = object.etag;
  options.if_modified_since = long_ago;
  expect_not_modified(ctx, ctx.get(object, options),
                      "If-None-Match false + If-Modified-Since true");
}

void check_head_if_match_false(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_match = other_etag;
  ctx.expect_head_error(ctx.head(object, options), 412, "HEAD If-Match: another ETag");
}

void check_head_if_none_match_true(check_context& ctx) {
  const auto& object = subject(ctx);
  client::get_options options;
  options.if_none_match = object.etag;
  expect_not_modified(ctx, ctx.head(object, options), "HEAD If-None-Match: its ETag");
}

void check_if_match_part_read(check_context& ctx) {
  const auto& object = ctx.fixtures().multipart_uneven;
  client::get_options matching;
  matching.if_match = object.etag;
  const auto part = ctx.get_part(object, 2, matching);
  ctx.expect_status(part, 206, "part 2, If-Match: the whole object's ETag");
  ctx.expect_body(part, object.part_bytes(2), "part 2, If-Match: the whole object's ETag");
  client::get_options other;
  other.if_match = other_etag;
  ctx.expect_error(ctx.get_part(object, 2, other), 412, "PreconditionFailed",
                   "part 2, If-Match: another ETag");
}

void check_if_match_range_read(check_context& ctx) {
  const auto& object = ctx.fixtures().multipart_uneven;
  client::get_options matching;
  matching.range = client::byte_range(object.part_offset(2), object.size() - 1);
  matching.if_match = object.etag;
  const auto read = ctx.get(object, matching);
  const auto label = "the rest by range, If-Match: the object's ETag";
  ctx.expect_status(read, 206, label);
  ctx.expect_body(read, std::string_view(object.data).substr(object.part_offset(2)), label);
  client::get_options other = matching;
  other.if_match = other_etag;
  ctx.expect_error(ctx.get(object, other), 412, "PreconditionFailed",
                   "the rest by range, If-Match: another ETag");
}

} // namespace

void add_conditional_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back({std::move(id), "cond", std::move(title), strength, std::move(clause), run});
  };
  add("cond.if-match-true", "If-Match with the object's ETag reads the object", level::must,
      "If-Match mismatch: 412 (a match reads the object)", check_if_match_true);
  add("cond.if-match-false", "If-Match with another ETag answers 412 PreconditionFailed",
      level::must, "If-Match mismatch: 412 PreconditionFailed", check_if_match_false);
  add("cond.if-none-match-true", "If-None-Match with the object's ETag answers 304", level::must,
      "If-None-Match match: 304 Not Modified (no body)", check_if_none_match_true);
  add("cond.if-none-match-false", "If-None-Match with another ETag reads the object", level::must,
      "If-None-Match match: 304 (no match reads the object)", check_if_none_match_false);
  add("cond.if-modified-since-unmodified", "If-Modified-Since its Last-Modified answers 304",
      level::must, "If-Modified-Since not modified: 304", check_if_modified_since_unmodified);
  add("cond.if-modified-since-modified", "If-Modified-Since an older date reads the object",
      level::must, "If-Modified-Since not modified: 304 (modified reads the object)",
      check_if_modified_since_modified);
  add("cond.if-unmodified-since-modified", "If-Unmodified-Since an older date answers 412",
      level::must, "If-Unmodified-Since modified: 412", check_if_unmodified_since_modified);
  add("cond.if-unmodified-since-unmodified", "If-Unmodified-Since its Last-Modified reads it",
      level::must, "If-Unmodified-Since modified: 412 (unmodified reads the object)",
      check_if_unmodified_since_unmodified);
  add("cond.if-match-wins", "If-Match true overrides If-Unmodified-Since false", level::must,
      "If-Match true + If-Unmodified-Since false: 200", check_if_match_wins);
  add("cond.if-none-match-wins", "If-None-Match false overrides If-Modified-Since true",
      level::must, "If-None-Match false + If-Modified-Since true: 304", check_if_none_match_wins);
  add("cond.head-if-match-false", "HEAD with If-Match mismatch answers 412, no body", level::must,
      "If-Match mismatch: 412 PreconditionFailed; HEAD errors carry no body",
      check_head_if_match_false);
  add("cond.head-if-none-match-true", "HEAD with If-None-Match match answers 304", level::must,
      "If-None-Match match: 304 Not Modified (no body)", check_head_if_none_match_true);
  add("cond.if-match-part-read", "If-Match guards part reads with the whole object's ETag",
      level::must,
      "Readers can use it [the multipart ETag] to detect a changed object between part reads "
      "(If-Match)",
      check_if_match_part_read);
  add("cond.if-match-range-read", "If-Match guards ranged reads", level::must,
      "If-Match mismatch: 412 PreconditionFailed (ranged reads included)",
      check_if_match_range_read);
}

} // namespace s3fault::audit
