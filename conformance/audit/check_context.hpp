#pragma once
// What a check works with: the client, the fixtures, request helpers that record every
// exchange, and expectations that record what the contract asks next to what the store did.
//
//   void check_count_header(check_context& ctx) {
//     for (const fixture* object : ctx.fixtures().multipart()) {
//       const auto part = ctx.get_part(*object, 1);
//       ctx.expect_header(part, "x-amz-mp-parts-count", "2", object->name + " part 1");
//     }
//   }
//
// The verdict follows from what was recorded: ERROR when a request got no response at all,
// else SKIP when the check said the feature is absent, else FAIL when an expectation was not
// met, else DEVIATION when the check saw a known alternative, else PASS.
#include "conformance/audit/audit_types.hpp"
#include "conformance/audit/fixtures.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace s3fault::audit {

class check_context {
public:
  check_context(client::s3_client& client, const fixture_set& fixtures, check_outcome& outcome);

  client::s3_client& client() { return client_; }
  const fixture_set& fixtures() const { return fixtures_; }

  // --- requests (each is recorded as an exchange of this check) -------------------------------
  client::response get(const fixture& object, const client::get_options& options = {});
  client::response head(const fixture& object, const client::get_options& options = {});
  client::response get_part(const fixture& object, long part_number,
                            client::get_options options = {});
  client::response head_part(const fixture& object, long part_number,
                             client::get_options options = {});
  /// GET or HEAD of any bucket and key (missing keys and buckets).
  client::response get_key(std::string_view bucket, std::string_view key,
                           const client::get_options& options = {});
  client::response head_key(std::string_view bucket, std::string_view key,
                            const client::get_options& options = {});
  /// Records a response of another operation; `request` is how the report names it.
  const client::response& record(const client::response& response, std::string request);
  /// Adds an exchange made earlier (a fixture's upload) to this check's evidence.
  void cite(exchange_record exchange);
  /// Keys a check created beyond the fixtures, removed with them at the end.
  void created_key(std::string key);

  // --- expectations (each returns whether it was met) ----------------------------------------
  bool expect(bool met, std::string expected, std::string observed);
  bool expect_status(const client::response& response, unsigned status, std::string_view what);
  /// The header is present with exactly `value`.
  bool expect_header(const client::response& response, std::string_view name,
                     std::string_view value, std::string_view what);
  bool expect_no_header(const client::response& response, std::string_view name,
                        std::string_view what);
  /// The body is exactly `bytes` (length, then content; the first differing offset is named).
  bool expect_body(const client::response& response, std::string_view bytes, std::string_view what);
  /// No body bytes (HEAD, 304).
  bool expect_no_body(const client::response& response, std::string_view what);
  /// `status` with an S3 error body whose <Code> is `code` (HEAD: status only, no body).
  bool expect_error(const client::response& response, unsigned status, std::string_view code,
                    std::string_view what);

  /// A HEAD error: `status` and no body (HEAD errors carry none, so there is no code to read).
  bool expect_head_error(const client::response& response, unsigned status, std::string_view what);

  // --- other verdicts --------------------------------------------------------------------------
  /// The store did a known alternative (still not a pass; several add up in the reason).
  void deviation(std::string reason);
  /// The feature is absent; nothing else this check recorded counts.
  void skip(std::string reason);

  /// The verdict from what was recorded (called by the runner).
  void conclude();
  /// A failure outside any request (an exception in the check), as ERROR.
  void error(std::string reason);
  const std::vector<std::string>& created_keys() const { return created_keys_; }

private:
  client::response recorded(client::response response, std::string request);

  client::s3_client& client_;
  const fixture_set& fixtures_;
  check_outcome& outcome_;
  std::optional<std::string> error_;
  std::optional<std::string> deviation_;
  std::optional<std::string> skip_;
  std::vector<std::string> created_keys_;
};

/// "GET /bucket/key?partNumber=2 [Range: bytes=0-9, If-Match: "..."]"
std::string describe_request(std::string_view method, std::string_view bucket, std::string_view key,
                             const client::get_options& options);
/// An ETag without its surrounding quotes (GetObjectAttributes sends it so; some stores'
/// CompleteMultipartUpload results too).
std::string unquoted_etag(std::string_view etag);
/// The quoted hex MD5 ETag of `bytes`.
std::string md5_etag(std::string_view bytes);
/// The de-facto multipart ETag: quoted hex MD5 of the concatenated binary part MD5s, "-N".
std::string multipart_etag(const fixture& object);

} // namespace s3fault::audit
