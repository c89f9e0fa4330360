// robust-parts: a part-wise reader that trusts only what it can check.
//
//   GET ?partNumber=1 ──> TOTAL from Content-Range "bytes 0-E/TOTAL" (a 200 without one: the
//        │                body is the whole object), ETag kept for If-Match
//        ├─ parts count N present: GET ?partNumber=2..N, each starting where the last ended,
//        │    until TOTAL bytes are covered
//        ├─ bytes still missing (no parts count, or one too low): GET Range bytes=COVERED-(TOTAL-1)
//        ├─ bytes written == TOTAL, else fail
//        └─ ETag a quoted MD5 (one PUT): MD5 of the output == ETag, else fail
//
// Every request after the first carries If-Match: a 412 (or another ETag) means the object
// changed between reads, and the read fails loudly. 500, 503, transport failures and short
// bodies are retried with backoff. A parts count higher than the truth is harmless: the reader
// stops asking for parts once TOTAL bytes are covered, and a 416 (or the 400 InvalidPart some
// stores send) for a part while bytes are missing hands the rest to the byte range read.
//
// Every GET carries x-amz-checksum-mode: ENABLED. A body whose x-amz-checksum-crc32, -crc32c,
// -sha1 or -sha256 is a plain digest (the whole object's, or the part's on a part read) and does
// not match the bytes received is retried like a short body; when the attempts run out the read
// fails naming the checksum, the value sent and the value of the bytes. Not checked: the
// composite "B64-N" of a whole multipart object (a checksum of part checksums), the byte range
// read (no checksum comes back for a range), stores that send no checksum. A multipart ETag
// "MD5-N" cannot be checked either, so damage in the byte range read of a multipart object
// passes (tests/conformance/readers/corrupted_bytes_test.cpp asserts it).
#include "conformance/readers/reader_support.hpp"
#include "text/content_range.hpp"
#include "text/text.hpp"

namespace s3fault::readers {
namespace {

class robust_parts_read {
public:
  robust_parts_read(const read_request& request, std::ostream& log)
      : request_(request), log_(log, "robust-parts"), runner_(request, log_) {}

  read_result run() {
    std::string error;
    if (!output_.open(request_.output_path, error)) {
      return failed_read(error, runner_, 0);
    }
    try {
      client_.emplace(request_.client);
    } catch (const std::exception& problem) {
      return failed_read(problem.what(), runner_, 0);
    }
    const auto parts_count = read_first_part();
    if (!error_.empty()) {
      return failed_read(error_, runner_, covered_);
    }
    if (parts_count && !read_later_parts(*parts_count)) {
      return failed_read(error_, runner_, covered_);
    }
    if (covered_ < total_ && !read_remainder()) {
      return failed_read(error_, runner_, covered_);
    }
    if (covered_ != total_) {
      return failed_read("read " + std::to_string(covered_) + " bytes of an object of " +
                             std::to_string(total_),
                         runner_, covered_);
    }
    if (!output_.resize(total_, error)) {
      return failed_read(error, runner_, covered_);
    }
    if (!check_md5()) {
      return failed_read(error_, runner_, covered_);
    }
    return finished_read(runner_, covered_);
  }

private:
  /// Reads part 1 and learns TOTAL and the ETag; returns the parts count when the store sent a
  /// readable one. Sets `error_` on failure.
  std::optional<std::uint64_t> read_first_part() {
    // A fresh writer per attempt: a retry writes from the same offset again.
    std::optional<range_writer> writer;
    const auto outcome = runner_.run(
        "GET partNumber=1",
        [&] {
          writer.emplace(output_, 0);
          return client_->get_object(request_.bucket, request_.key, part_options(1, *writer));
        },
        [&](const client::response& response) {
          return checked(judge_first_part(response, *writer), response, *writer);
        });
    if (!outcome.ok()) {
      error_ = outcome.error;
      return std::nullopt;
    }
    const auto& response = outcome.response;
    etag_ = std::string(response.header("ETag").value_or(""));
    if (etag_.empty()) {
      log_.line("no ETag on the first response: later reads cannot detect a changed object");
    }
    etag_md5_ = etag_md5(response, etag_md5_missing_);
    if (const auto range = response.header("Content-Range")) {
      const auto parsed = text::parse_content_range(*range); // judge_first_part checked it
      total_ = parsed->total;
      covered_ = parsed->last + 1;
    } else {
      total_ = covered_ = response.body_bytes;
    }
    const auto header = response.header("x-amz-mp-parts-count");
    if (!header) {
      return std::nullopt;
    }
    const auto count = text::parse_whole_number(*header);
    if (!count || *count == 0) {
      log_.line("ignoring unreadable x-amz-mp-parts-count '" + std::string(*header) + "'");
      return std::nullopt;
    }
    return count;
  }

  attempt_verdict judge_first_part(const client::response& response, const range_writer& writer) {
    if (auto verdict = judge_transport(response, &writer);
        verdict.what != attempt_verdict::kind::accept) {
      return verdict;
    }
    if (response.status != 200 && response.status != 206) {
      return attempt_verdict::fail("expected 200 or 206, got " + describe_status(response));
    }
    const auto range = response.header("Content-Range");
    if (!range) {
      // A 206 without a range cannot be placed: only a zero-byte object answers that way.
      if (response.status == 206 && response.body_bytes > 0) {
        return attempt_verdict::fail("206 without Content-Range: the object's size is unknown");
      }
      return attempt_verdict::accept();
    }
    const auto parsed = text::parse_content_range(*range);
    if (!parsed) {
      return attempt_verdict::fail("unreadable Content-Range '" + std::string(*range) + "'");
    }
    if (parsed->first != 0) {
      return attempt_verdict::fail("part 1 starts at byte " + std::to_string(parsed->first));
    }
    return check_range_length(response, *parsed);
  }

  /// Parts 2..N while bytes are missing. False with `error_` set on failure.
  bool read_later_parts(std::uint64_t parts_count) {
    std::uint64_t part = 2;
    for (; part <= parts_count && covered_ < total_; ++part) {
      const auto start = covered_;
      std::optional<range_writer> writer;
      const std::string what = "GET partNumber=" + std::to_string(part);
      const auto outcome = runner_.run(
          what,
          [&] {
            writer.emplace(output_, start, total_ - start);
            return client_->get_object(request_.bucket, request_.key, part_options(part, *writer));
          },
          [&](const client::response& response) {
            return checked(judge_later_read(response, *writer, start, /*part_read=*/true), response,
                           *writer);
          });
      if (!outcome.ok()) {
        error_ = outcome.error;
        return false;
      }
      if (outcome.response.status != 206) {
        log_.line("parts count " + std::to_string(parts_count) + " is higher than the parts the " +
                  "store has; the rest is read by byte range");
        return true;
      }
      covered_ = start + outcome.response.body_bytes;
    }
    if (part <= parts_count) {
      log_.line("all " + std::to_string(total_) + " bytes covered by part " +
                std::to_string(part - 1) + "; the parts count " + std::to_string(parts_count) +
                " is higher than the truth, not asking for more");
    }
    return true;
  }

  /// GET Range bytes=COVERED-(TOTAL-1) for whatever the parts did not cover.
  bool read_remainder() {
    const auto start = covered_;
    std::optional<range_writer> writer;
    const std::string range = client::byte_range(start, total_ - 1);
    const auto outcome = runner_.run(
        "GET Range " + range,
        [&] {
          writer.emplace(output_, start, total_ - start);
          client::get_options options;
          options.range = range;
          options.if_match = etag_;
          options.checksum_mode = true;
          options.read = writer->read_options();
          return client_->get_object(request_.bucket, request_.key, options);
        },
        [&](const client::response& response) {
          auto verdict = judge_later_read(response, *writer, start, /*part_read=*/false);
          if (verdict.what == attempt_verdict::kind::accept &&
              start + response.body_bytes != total_) {
            return attempt_verdict::fail("the range ends before the object's " +
                                         std::to_string(total_) + " bytes");
          }
          return checked(std::move(verdict), response, *writer);
        });
    if (!outcome.ok()) {
      error_ = outcome.error;
      return false;
    }
    covered_ = total_;
    return true;
  }

  /// A part or range read after the first: 206 starting at `start`, same TOTAL, same ETag. For
  /// a part read, a "no such part" answer is accepted too (the caller moves on to ranges).
  attempt_verdict judge_later_read(const client::response& response, const range_writer& writer,
                                   std::uint64_t start, bool part_read) {
    if (auto verdict = judge_transport(response, &writer);
        verdict.what != attempt_verdict::kind::accept) {
      return verdict;
    }
    if (part_read && is_no_such_part(response)) {
      return attempt_verdict::accept();
    }
    if (response.status != 206) {
      return attempt_verdict::fail("expected 206, got " + describe_status(response));
    }
    if (const auto etag = response.header("ETag"); etag && !etag_.empty() && *etag != etag_) {
      return attempt_verdict::fail("the object changed since the first read (ETag " +
                                   std::string(*etag) + ", first read " + etag_ + ")");
    }
    const auto range = response.header("Content-Range");
    const auto parsed = range ? text::parse_content_range(*range) : std::nullopt;
    if (!parsed) {
      return attempt_verdict::fail("206 without a readable Content-Range");
    }
    if (parsed->total != total_) {
      return attempt_verdict::fail("the object changed size: Content-Range total " +
                                   std::to_string(parsed->total) + ", first read " +
                                   std::to_string(total_));
    }
    if (parsed->first != start) {
      return attempt_verdict::fail("Content-Range " + std::string(*range) + " starts at byte " +
                                   std::to_string(parsed->first) + " but the bytes before end at " +
                                   std::to_string(start) + ": the parts do not line up");
    }
    return check_range_length(response, *parsed);
  }

  /// An accepted 200 or 206 is then checked against the checksums it came with (a mismatch is
  /// retried); other verdicts, and answers without the object's bytes, are left as they are.
  attempt_verdict checked(attempt_verdict verdict, const client::response& response,
                          const range_writer& writer) const {
    if (verdict.what != attempt_verdict::kind::accept ||
        (response.status != 200 && response.status != 206)) {
      return verdict;
    }
    return verify_body_checksums(response, output_, writer.offset(), writer.written());
  }

  /// The whole object is in the output: when its ETag is an MD5 (one PUT), the bytes must have
  /// it. False with `error_` set on a mismatch.
  bool check_md5() {
    if (!etag_md5_) {
      log_.line("MD5 not checked: " + etag_md5_missing_);
      return true;
    }
    error_ = compare_md5(output_, total_, *etag_md5_, etag_);
    if (!error_.empty()) {
      log_.line(error_);
      return false;
    }
    log_.line("MD5 of the object matches its ETag " + etag_);
    return true;
  }

  /// The body must be as long as its Content-Range says.
  static attempt_verdict check_range_length(const client::response& response,
                                            const text::content_range& range) {
    if (response.body_bytes != range.length()) {
      return attempt_verdict::fail(std::to_string(response.body_bytes) +
                                   " bytes for a Content-Range of " +
                                   std::to_string(range.length()));
    }
    return attempt_verdict::accept();
  }

  /// 416 InvalidPartNumber per the contract; 400 InvalidPart is a known deviation that means
  /// the same.
  static bool is_no_such_part(const client::response& response) {
    return response.status == 416 ||
           (response.status == 400 && response.error && response.error->code == "InvalidPart");
  }

  client::get_options part_options(std::uint64_t part, range_writer& writer) const {
    client::get_options options;
    options.part_number = static_cast<long>(part);
    if (part > 1) {
      options.if_match = etag_;
    }
    options.checksum_mode = true;
    options.read = writer.read_options();
    return options;
  }

  const read_request& request_;
  request_log log_;
  request_runner runner_;
  output_file output_;
  std::optional<client::s3_client> client_;
  std::uint64_t total_ = 0;             // the object's size, from the first read
  std::uint64_t covered_ = 0;           // bytes [0, covered_) are in the output
  std::string etag_;                    // of the first read; sent as If-Match afterwards
  std::optional<std::string> etag_md5_; // the MD5 the ETag promises (one-PUT objects)
  std::string etag_md5_missing_;        // why the ETag promises none
  std::string error_;
};

} // namespace

read_result read_robust_parts(const read_request& request, std::ostream& log) {
  return robust_parts_read(request, log).run();
}

} // namespace s3fault::readers
