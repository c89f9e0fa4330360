#include "conformance/audit/failure_causes.hpp"

#include <algorithm>
#include <map>

namespace s3fault::audit {

const std::vector<failure_cause>& failure_causes() {
  static const std::vector<failure_cause> table = {
      {"part-number-reads",
       "Answer GET and HEAD ?partNumber=N with part N: 206, Content-Range bytes A-B/TOTAL, the "
       "part's Content-Length, x-amz-mp-parts-count, the object's ETag; 416 past the last part, "
       "400 for a number outside 1..10000 or with a Range",
       {"part.status",
        "part.content-range",
        "part.content-length",
        "part.count-header",
        "part.whole-object-etag",
        "part.reassembly",
        "part.totals-agree",
        "part.head",
        "part.head-count-header",
        "part.single-object-part-one",
        "part.single-object-part-two",
        "part.zero-byte",
        "part.past-count",
        "part.head-past-count",
        "part.highest-number",
        "part.number-zero",
        "part.number-over-limit",
        "part.number-not-integer",
        "part.with-range",
        "part.incomplete-upload",
        "cond.if-match-part-read",
        "attrs.parts-agree"}},
      {"parts-count-elsewhere",
       "Send x-amz-mp-parts-count only on ?partNumber= reads, not on plain reads or single-PUT "
       "objects",
       {"part.count-absent-plain", "part.count-absent-single"}},
      {"accept-ranges",
       "Send Accept-Ranges: bytes on GET and HEAD answers",
       {"part.accept-ranges", "range.accept-ranges"}},
      {"byte-ranges",
       "Serve Range bytes=A-B and bytes=A- as RFC 9110 says: 206, exactly those bytes, "
       "Content-Range bytes A-B/SIZE, an end past the object clamped to its last byte",
       {"range.closed", "range.open-ended", "range.end-clamped", "range.last-byte",
        "range.one-byte-object", "range.across-parts"}},
      {"suffix-ranges",
       "Read Range bytes=-N as the last N bytes (bytes SIZE-N to SIZE-1, the whole object when "
       "N is larger), not as bytes 0-N",
       {"range.suffix", "range.suffix-longer", "range.multipart-suffix"}},
      {"unsatisfiable-ranges",
       "Answer 416 InvalidRange (Content-Range bytes */SIZE) to a range that starts at or past "
       "the end, and to any range on a zero-byte object",
       {"range.start-past-end", "range.start-at-end", "range.zero-byte"}},
      {"ranged-head",
       "Answer a HEAD with a Range like a plain HEAD: 200 and the whole object's length",
       {"range.head-ignored"}},
      {"if-match",
       "Honour If-Match on GET and HEAD, ranged reads included: 412 PreconditionFailed when the "
       "object's current ETag differs",
       {"cond.if-match-true", "cond.if-match-false", "cond.head-if-match-false",
        "cond.if-match-range-read", "etag.changes-with-content"}},
      {"if-none-match",
       "Honour If-None-Match and If-Modified-Since on GET and HEAD: 304 Not Modified when the "
       "ETag matches or the object is unchanged since the date",
       {"cond.if-none-match-true", "cond.if-none-match-false", "cond.if-modified-since-unmodified",
        "cond.if-modified-since-modified", "cond.head-if-none-match-true"}},
      {"if-unmodified-since",
       "Honour If-Unmodified-Since: 412 PreconditionFailed when the object changed after the "
       "date",
       {"cond.if-unmodified-since-modified", "cond.if-unmodified-since-unmodified"}},
      {"conditional-precedence",
       "Weigh conditions in RFC 9110's order: a true If-Match overrides If-Unmodified-Since, a "
       "false If-None-Match overrides If-Modified-Since",
       {"cond.if-match-wins", "cond.if-none-match-wins"}},
      {"not-modified-headers",
       "Send ETag and Last-Modified on every 304 Not Modified, to GET and to HEAD",
       {"cond.304-etag", "cond.head-304-etag", "cond.304-last-modified",
        "cond.head-304-last-modified"}},
      {"conditional-put",
       "Answer a PUT with If-None-Match: * on an existing key 412 PreconditionFailed",
       {"cond.put-if-none-match-star"}},
      {"single-part-etags",
       "Make the ETag of a PUT and of an UploadPart the quoted MD5 of its body, the same on PUT, "
       "GET and HEAD",
       {"etag.single-put-md5", "etag.zero-byte", "etag.put-response", "etag.quoted",
        "etag.upload-part-md5"}},
      {"multipart-etags",
       "Make a multipart object's ETag the MD5 of its parts' binary MD5s followed by -N (N the "
       "part count), not the MD5 of the body",
       {"etag.multipart-md5-of-md5s", "etag.multipart-suffix", "etag.multipart-not-body-md5"}},
      {"complete-etag",
       "Answer CompleteMultipartUpload with the object's ETag in <ETag>",
       {"etag.complete-result"}},
      {"missing-objects",
       "Answer a missing key 404 NoSuchKey and a missing bucket 404 NoSuchBucket; to HEAD, the "
       "same status and no body",
       {"error.no-such-key", "error.no-such-bucket", "error.head-no-body",
        "error.head-no-such-bucket"}},
      {"error-bodies",
       "Send errors as application/xml <Error> with <Code>, a <Message> saying what went wrong, "
       "<RequestId> and <Resource>",
       {"error.xml-shape", "error.message-text", "error.content-type", "error.request-id",
        "error.resource"}},
      {"object-agreement",
       "Serve full GETs intact, and make GET, HEAD and ListObjectsV2 agree on size, ETag, "
       "Last-Modified and Content-Type",
       {"agree.full-get-multipart", "agree.full-get-single", "agree.zero-byte", "agree.head-length",
        "agree.head-get", "agree.listing", "agree.last-modified"}},
      {"checksums",
       "Keep the x-amz-checksum-* values sent with uploads and send them back when "
       "x-amz-checksum-mode: ENABLED asks (a multipart object's as the checksum of checksums)",
       {"checksum.single-crc32", "checksum.single-sha256", "checksum.multipart-composite"}},
      {"attributes-paging",
       "Page GetObjectAttributes' parts with x-amz-max-parts and x-amz-part-number-marker",
       {"attrs.parts-pagination"}},
      {"versions",
       "Send x-amz-version-id on every write in a versioned bucket (CompleteMultipartUpload "
       "too), serve ?versionId= reads, and answer a read of a deleted key 404 with "
       "x-amz-delete-marker: true",
       {"version.get-older", "version.part-read", "version.range-read", "version.delete-marker"}},
      {"complete-multipart-upload",
       "Answer a CompleteMultipartUpload sent again after it succeeded 200 with the same ETag, "
       "and one of an upload id never issued 404 NoSuchUpload",
       {"upload.complete-retry", "upload.complete-unknown-upload"}},
      {"authentication",
       "Check every request's signature: 403 SignatureDoesNotMatch for a wrong secret, 403 "
       "AccessDenied for an unsigned request or an expired presigned URL",
       {"auth.wrong-secret", "auth.anonymous", "auth.presign-expired"}},
  };
  return table;
}

namespace {

bool is_failure(const check_result& result) {
  return result.outcome.result == verdict::fail || result.outcome.result == verdict::deviation;
}

const failure_cause* cause_of(std::string_view check_id) {
  for (const auto& cause : failure_causes()) {
    if (std::find(cause.checks.begin(), cause.checks.end(), check_id) != cause.checks.end()) {
      return &cause;
    }
  }
  return nullptr;
}

} // namespace

std::vector<cause_group> group_failures_by_cause(const audit_report& report) {
  std::vector<cause_group> groups;
  std::map<std::string, std::size_t> index; // cause id -> place in groups
  for (const auto& result : report.results) {
    if (!is_failure(result)) {
      continue;
    }
    const auto* cause = cause_of(result.id);
    const std::string id = cause != nullptr ? std::string(cause->id) : result.id;
    auto [found, added] = index.try_emplace(id, groups.size());
    if (added) {
      groups.push_back({id, cause != nullptr ? std::string(cause->fix) : result.title, {}, 0, 0});
    }
    auto& group = groups[found->second];
    group.checks.push_back(&result);
    group.gating += is_gating_failure(result, report.strict) ? 1 : 0;
  }
  // Stable: equal causes stay in the order their first check has in the catalog.
  std::stable_sort(groups.begin(), groups.end(), [](const cause_group& a, const cause_group& b) {
    if ((a.gating > 0) != (b.gating > 0)) {
      return a.gating > 0;
    }
    if (a.gating != b.gating) {
      return a.gating > b.gating;
    }
    return a.checks.size() > b.checks.size();
  });
  std::size_t rank = 0;
  for (auto& group : groups) {
    group.rank = group.gating > 0 ? ++rank : 0;
  }
  return groups;
}

} // namespace s3fault::audit
