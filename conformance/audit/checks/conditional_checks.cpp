// Conditional GET and HEAD (docs/contract.md, "Conditional requests"). A robust part-wise reader
// sends If-Match with the whole object's ETag on later part reads, so those are checked too.
// A 304 is judged by what it carries as well as by its status (a cache or reader revalidating
// keeps the ETag and Last-Modified it learns from it), and conditional PUTs close the area.
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

/// The two ways to a 304 (If-None-Match: its ETag, If-Modified-Since: its Last-Modified), by
/// GET or HEAD, each judged by `judge`.
void for_each_not_modified(check_context& ctx, bool head,
                           void (*judge)(check_context&, const client::response&, const fixture&,
                                         const std::string&)) {
  const auto& object = subject(ctx);
  const std::string method = head ? "HEAD " : "";
  client::get_options by_etag;
  by_etag.if_none_match = object.etag;
  client::get_options by_date;
  by_date.if_modified_since = object.last_modified;
  for (const auto& [options, label] :
       {std::pair{by_etag, method + "If-None-Match: its ETag"},
        std::pair{by_date, method + "If-Modified-Since: its Last-Modified"}}) {
    const auto read = head ? ctx.head(object, options) : ctx.get(object, options);
    if (ctx.expect_status(read, 304, label)) {
      judge(ctx, read, object, label);
    }
  }
}

void judge_304_etag(check_context& ctx, const client::response& read, const fixture& object,
                    const std::string& label) {
  ctx.expect_header(read, "ETag", object.etag, label + ", the 304");
}

void judge_304_last_modified(check_context& ctx, const client::response& read,
                             const fixture& object, const std::string& label) {
  ctx.expect_header(read, "Last-Modified", object.last_modified, label + ", the 304");
}

void check_304_etag(check_context& ctx) {
  for_each_not_modified(ctx, false, judge_304_etag);
}

void check_head_304_etag(check_context& ctx) {
  for_each_not_modified(ctx, true, judge_304_etag);
}

void check_304_last_modified(check_context& ctx) {
  for_each_not_modified(ctx, false, judge_304_last_modified);
}

void check_head_304_last_modified(check_context& ctx) {
  for_each_not_modified(ctx, true, judge_304_last_modified);
}

void check_put_if_none_match_star(check_context& ctx) {
  auto& client = ctx.client();
  const auto& bucket = ctx.fixtures().bucket;
  const std::string key = ctx.fixtures().prefix + "conditional-put";
  ctx.created_key(key);
  const std::string first = seeded_bytes(4096, 11), second = seeded_bytes(4096, 12);
  client::put_options only_new;
  only_new.extra_headers.emplace_back("If-None-Match", "*");
  const std::string request = "PUT /" + bucket + "/" + key + " [If-None-Match: *]";
  // Copies: record() hands back the reference it was given, here to a temporary.
  const client::response created =
      ctx.record(client.put_object(bucket, key, client::body_source::from_view(first), only_new),
                 request + " (a new key)");
  ctx.expect_status(created, 200, "If-None-Match: * on a new key");
  const client::response again =
      ctx.record(client.put_object(bucket, key, client::body_source::from_view(second), only_new),
                 request + " (the key exists)");
  ctx.expect_error(again, 412, "PreconditionFailed", "If-None-Match: * on an existing key");
  const auto read = ctx.get_key(bucket, key);
  ctx.expect_body(read, first, "GET afterwards: the first PUT's bytes");
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
  add("cond.304-etag", "A 304 to GET carries the object's ETag", level::must,
      "A 304 Not Modified carries ... ETag (RFC 7232 section 4.1: MUST)", check_304_etag);
  add("cond.head-304-etag", "A 304 to HEAD carries the object's ETag", level::must,
      "A 304 Not Modified carries ... ETag (RFC 7232 section 4.1: MUST)", check_head_304_etag);
  add("cond.304-last-modified", "A 304 to GET carries the object's Last-Modified", level::should,
      "A 304 Not Modified carries ... and, as AWS sends it, Last-Modified",
      check_304_last_modified);
  add("cond.head-304-last-modified", "A 304 to HEAD carries the object's Last-Modified",
      level::should, "A 304 Not Modified carries ... and, as AWS sends it, Last-Modified",
      check_head_304_last_modified);
  add("cond.put-if-none-match-star", "PUT with If-None-Match: * on an existing key answers 412",
      level::may,
      "Conditional writes: If-None-Match: * on PutObject ... answers 412 PreconditionFailed when "
      "the key exists",
      check_put_if_none_match_star);
}

} // namespace s3fault::audit
