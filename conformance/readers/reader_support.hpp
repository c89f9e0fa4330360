#pragma once
// What the readers share: the output file written at offsets, one log line per request,
// Content-Range parsing, the retry loop with exponential backoff and jitter, and the checks of
// the bytes themselves: x-amz-checksum-* of a body, the MD5 ETag of a whole object.
//
//   request ──send──> response ──judge──> accept ──> the reader goes on
//                          ^                ├─ retry (500, 503, transport, short body, a body
//                          │                │    that does not match its x-amz-checksum-*):
//                          └── backoff ─────┘    sleep first*2^(n-1), jittered, up to max_attempts
//                                           └─ fail ──> the read fails with the reason
//
// Response bodies go straight to the output file through a `range_writer`: every attempt
// writes from the same offset, so a retry overwrites the bytes of the attempt it replaces.
// Checksums and MD5s are computed over the bytes read back from that file: the algorithm is only
// known once the headers are in, and what is checked is then exactly what the reader hands on.
#include "conformance/client/s3_client.hpp"
#include "conformance/readers/readers.hpp"

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::readers {

/// The output, created or truncated when opened. Written with pwrite at offsets, so parallel
/// ranges need no lock and a retried request overwrites its own earlier bytes.
class output_file {
public:
  output_file() = default;
  ~output_file();
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  /// Creates or truncates `path` (opened for reading too, for the checks); false with `error`
  /// set when it cannot.
  bool open(const std::string& path, std::string& error);
  /// Thread-safe. False with `error` set when the bytes could not all be written.
  bool write_at(std::uint64_t offset, std::string_view bytes, std::string& error) const;
  /// Sets the file's length (cuts bytes a longer failed attempt may have left past the end).
  bool resize(std::uint64_t size, std::string& error) const;
  /// The file's length now, or nullopt when it cannot be known.
  std::optional<std::uint64_t> length() const;
  /// Thread-safe. Hands the `length` bytes from `offset` to `consume`, in chunks; false with
  /// `error` set when they cannot all be read (the file is shorter, or a read failed).
  bool read_at(std::uint64_t offset, std::uint64_t length,
               const std::function<void(std::string_view)>& consume, std::string& error) const;

private:
  int fd_ = -1;
  std::string path_;
};

/// One attempt's body sink: writes from `offset` on, and refuses bytes past `limit` so that a
/// store answering more than asked cannot overwrite a neighbouring range.
class range_writer {
public:
  range_writer(const output_file& file, std::uint64_t offset,
               std::optional<std::uint64_t> limit = std::nullopt)
      : file_(file), offset_(offset), limit_(limit) {}
  range_writer(const range_writer&) = delete;
  range_writer& operator=(const range_writer&) = delete;

  /// A callback target bound to this writer, which must outlive the request.
  client::read_options read_options();
  std::uint64_t offset() const { return offset_; }
  std::uint64_t written() const { return written_; }
  /// Why the writer stopped the body (a local write error, or more bytes than the limit).
  const std::string& problem() const { return problem_; }

private:
  bool deliver(std::string_view chunk);

  const output_file& file_;
  std::uint64_t offset_;
  std::optional<std::uint64_t> limit_;
  std::uint64_t written_ = 0;
  std::string problem_;
};

/// One line per request on the caller's stream, "READER: TEXT"; lines written from parallel
/// threads never interleave.
class request_log {
public:
  request_log(std::ostream& out, std::string_view reader) : out_(out), reader_(reader) {}
  void line(std::string_view text);

private:
  std::ostream& out_;
  std::string reader_;
  std::mutex mutex_;
};

/// "206, 5242880 bytes, Content-Range bytes 0-5242879/11534336, parts count 3" or
/// "no response: connection refused": what a log line says about a response.
std::string summarize(const client::response& response);

/// "404 NoSuchKey (The specified key does not exist.)", "200 OK", or the transport failure: what
/// an error says about a response that was not what the reader needed.
std::string describe_status(const client::response& response);

/// How a reader judges one attempt's response.
struct attempt_verdict {
  enum class kind { accept, retry, fail };
  kind what = kind::accept;
  std::string reason; // for retry and fail; for accept, an optional note for the log line

  static attempt_verdict accept(std::string note = {}) { return {kind::accept, std::move(note)}; }
  static attempt_verdict retry(std::string reason) { return {kind::retry, std::move(reason)}; }
  static attempt_verdict fail(std::string reason) { return {kind::fail, std::move(reason)}; }
};

/// The judgement every reader makes first. Retry: a transport failure, 500, 503, a 2xx body
/// that does not match its Content-Length. Fail: a local write failure, a body past the
/// writer's limit, 412 (the object changed). Accept: nothing wrong at this level (the status may
/// still be any other code; the reader decides). `writer` is null for HEAD.
attempt_verdict judge_transport(const client::response& response, const range_writer* writer);

/// Checks the body of an accepted 200 or 206 against the x-amz-checksum-crc32, -crc32c, -sha1 and
/// -sha256 its response carries, over the `length` bytes at `offset` of `file` (where the body
/// was written). Retry when one does not match (the bytes were damaged on the way: another
/// attempt may get them whole), with a reason naming the checksum, the value the store sent and
/// the one of the bytes; fail when the file cannot be read back. Otherwise accept, with a note
/// for the log: what was checked, or why nothing was. Not checked: a composite value "B64-N" (a
/// checksum of part checksums, not of these bytes), a FULL_OBJECT checksum on a body that is
/// only part of the object, a value that is not base64, and no checksum at all.
attempt_verdict verify_body_checksums(const client::response& response, const output_file& file,
                                      std::uint64_t offset, std::uint64_t length);

/// The MD5 (lower-case hex) that a response's ETag promises for the whole object: a quoted ETag
/// of 32 hex digits, which S3 gives an object uploaded in one PUT. nullopt with `why_not` set for
/// no ETag, a multipart ETag ("...-N", an MD5 of part MD5s), any other form, and objects under
/// SSE-KMS or SSE-C (whose ETags are not MD5s of the bytes).
std::optional<std::string> etag_md5(const client::response& response, std::string& why_not);

/// Compares the MD5 of the first `size` bytes of `file` with `md5_hex`, promised by `etag`.
/// Empty when they match; otherwise the error ("MD5 of the object (HEX) does not match its ETag
/// ETAG: ..." or why the file could not be read back).
std::string compare_md5(const output_file& file, std::uint64_t size, std::string_view md5_hex,
                        std::string_view etag);

/// Sends requests for one read with retries, and counts them. Thread-safe: the ranged reader's
/// threads share one.
class request_runner {
public:
  request_runner(const read_request& request, request_log& log)
      : max_attempts_(request.max_attempts == 0 ? 1 : request.max_attempts),
        first_backoff_(request.backoff), log_(log) {}

  struct outcome {
    client::response response; // of the last attempt
    std::string error;         // empty when an attempt was accepted

    bool ok() const { return error.empty(); }
  };

  /// Makes attempts with `send` until `judge` accepts one, fails one, or max_attempts is spent;
  /// sleeps a jittered, doubling backoff between attempts. `what` names the request in the log
  /// and in errors ("GET partNumber=2").
  outcome run(std::string_view what, const std::function<client::response()>& send,
              const std::function<attempt_verdict(const client::response&)>& judge);
  /// Counts one request sent outside `run` (the naive reader sends each once).
  void count_request() { ++requests_; }

  unsigned requests() const { return requests_; }
  unsigned retries() const { return retries_; }

private:
  std::chrono::milliseconds backoff_before(unsigned next_attempt) const;

  unsigned max_attempts_;
  std::chrono::milliseconds first_backoff_;
  request_log& log_;
  std::atomic<unsigned> requests_{0};
  std::atomic<unsigned> retries_{0};
};

/// The result of a read that stopped with `error`, counters filled from `runner`.
read_result failed_read(std::string error, const request_runner& runner, std::uint64_t bytes);
read_result finished_read(const request_runner& runner, std::uint64_t bytes);

} // namespace s3fault::readers
