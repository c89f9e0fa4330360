// Authentication (docs/contract.md, "Authentication"): a store that serves the audit's private
// bucket to a wrong signature, to nobody in particular, or to a presigned URL past its expiry
// serves it to anyone. Each check reads the `single` fixture with a second client that differs
// from the audit's in exactly one way. An audit run without credentials (--anonymous) has no
// private bucket to protect: the checks SKIP.
#include "conformance/audit/check_catalog.hpp"
#include "conformance/audit/check_context.hpp"

#include <chrono>

namespace s3fault::audit {
namespace {

/// A secret no store holds for the audit's access key (never the real one, so it cannot leak).
constexpr const char* wrong_secret = "s3fault-audit-not-the-secret-key";

/// True (and SKIP recorded) when the audit itself signs nothing.
bool skipped_without_credentials(check_context& ctx) {
  if (ctx.client().config().anonymous) {
    ctx.skip("the audit runs without credentials (--anonymous): no private bucket to protect");
    return true;
  }
  return false;
}

/// "/bucket/key?X-Amz-..." from an absolute presigned URL.
std::string target_of(const std::string& url) {
  const auto scheme_end = url.find("://");
  const auto path = url.find('/', scheme_end == std::string::npos ? 0 : scheme_end + 3);
  return path == std::string::npos ? std::string("/") : url.substr(path);
}

void check_wrong_secret(check_context& ctx) {
  if (skipped_without_credentials(ctx)) {
    return;
  }
  auto config = ctx.client().config();
  config.credentials.secret_key = wrong_secret;
  client::s3_client wrong(config);
  const auto& object = ctx.fixtures().single;
  const auto read = ctx.record(wrong.get_object(ctx.fixtures().bucket, object.key),
                               "GET /" + ctx.fixtures().bucket + "/" + object.key +
                                   " (signed with a wrong secret key)");
  ctx.expect_error(read, 403, "SignatureDoesNotMatch", "GET signed with a wrong secret key");
}

void check_anonymous(check_context& ctx) {
  if (skipped_without_credentials(ctx)) {
    return;
  }
  auto config = ctx.client().config();
  config.anonymous = true;
  client::s3_client anonymous(config);
  const auto& object = ctx.fixtures().single;
  const auto read = ctx.record(anonymous.get_object(ctx.fixtures().bucket, object.key),
                               "GET /" + ctx.fixtures().bucket + "/" + object.key + " (unsigned)");
  ctx.expect_error(read, 403, "AccessDenied", "unsigned GET of an object in a private bucket");
}

void check_presign_expired(check_context& ctx) {
  if (skipped_without_credentials(ctx)) {
    return;
  }
  const auto& bucket = ctx.fixtures().bucket;
  const auto& object = ctx.fixtures().single;
  const std::string request = "GET /" + bucket + "/" + object.key;
  // The control: the same URL signed now is good, so a refusal below is about the expiry.
  const auto valid = ctx.record(
      ctx.client().send_raw(
          "GET",
          target_of(ctx.client().presign_url("GET", bucket, object.key, std::chrono::seconds(300))),
          {}),
      request + " (presigned now, X-Amz-Expires=300)");
  ctx.expect_status(valid, 200, "a presigned URL within its expiry");
  ctx.expect_body(valid, object.data, "a presigned URL within its expiry");
  // Signed an hour ago, valid for one second: expired without any waiting.
  auto config = ctx.client().config();
  const auto signed_at = std::chrono::system_clock::now() - std::chrono::hours(1);
  config.clock = [signed_at] { return signed_at; };
  client::s3_client past(config);
  const auto url = past.presign_url("GET", bucket, object.key, std::chrono::seconds(1));
  const auto expired = ctx.record(ctx.client().send_raw("GET", target_of(url), {}),
                                  request + " (presigned 1 hour ago, X-Amz-Expires=1)");
  ctx.expect_error(expired, 403, "AccessDenied", "a presigned URL 1 hour past its expiry");
}

} // namespace

void add_auth_checks(std::vector<check_definition>& catalog) {
  const auto add = [&catalog](std::string id, std::string title, level strength, std::string clause,
                              void (*run)(check_context&)) {
    catalog.push_back({std::move(id), "auth", std::move(title), strength, std::move(clause), run});
  };
  add("auth.wrong-secret", "A request signed with a wrong secret answers 403", level::must,
      "A request signed with a wrong secret answers 403 SignatureDoesNotMatch", check_wrong_secret);
  add("auth.anonymous", "An unsigned request to the private bucket answers 403", level::must,
      "an unsigned request to a private bucket 403 AccessDenied", check_anonymous);
  add("auth.presign-expired", "A presigned URL past its expiry answers 403", level::must,
      "a presigned URL past its expiry 403 AccessDenied (\"Request has expired\")",
      check_presign_expired);
}

} // namespace s3fault::audit
