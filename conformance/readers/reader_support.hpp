#pragma once
// What the readers share: the output file written at offsets, one log line per request,
// Content-Range parsing, and the retry loop with exponential backoff and jitter.
//
//   request ──send──> response ──judge──> accept ──> the reader goes on
//                          ^                ├─ retry (500, 503, transport, short body):
//                          └── backoff ─────┘    sleep first*2^(n-1), jittered, up to max_attempts
//                                           └─ fail ──> the read fails with the reason
//
// Response bodies go straight to the output file through a `range_writer`: every attempt
// writes from the same offset, so a retry overwrites the bytes of the attempt it replaces.
#include "conformance/client/s3_client.hpp"
#include "conformance/readers/readers.hpp"

#include <atomic>
#include <functional>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace s3fault::readers {

/// `Content-Range: bytes FIRST-LAST/TOTAL` of a 206. The unsatisfied form `bytes */TOTAL` and an
/// unknown total `*` are not accepted: every reader here needs all three numbers.
struct content_range {
  std::uint64_t first = 0;
  std::uint64_t last = 0;
  std::uint64_t total = 0;

  std::uint64_t length() const { return last - first + 1; }
};
std::optional<content_range> parse_content_range(std::string_view value);

/// A part count or size as sent in a header: decimal digits only, nothing else.
std::optional<std::uint64_t> parse_decimal(std::string_view text);

/// The output, created or truncated when opened. Written with pwrite at offsets, so parallel
/// ranges need no lock and a retried request overwrites its own earlier bytes.
class output_file {
public:
  output_file() = default;
  ~output_file();
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;

  /// Creates or truncates `path`; false with `error` set when it cannot.
  bool open(const std::string& path, std::string& error);
  /// Thread-safe. False with `error` set when the bytes could not all be written.
  bool write_at(std::uint64_t offset, std::string_view bytes, std::string& error) const;
  /// Sets the file's length (cuts bytes a longer failed attempt may have left past the end).
  bool resize(std::uint64_t size, std::string& error) const;
  /// The file's length now, or nullopt when it cannot be known.
  std::optional<std::uint64_t> length() const;

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
  std::string reason; // for retry and fail

  static attempt_verdict accept() { return {}; }
  static attempt_verdict retry(std::string reason) { return {kind::retry, std::move(reason)}; }
  static attempt_verdict fail(std::string reason) { return {kind::fail, std::move(reason)}; }
};

/// The judgement every reader makes first. Retry: a transport failure, 500, 503, a 2xx body
/// that does not match its Content-Length. Fail: a local write failure, a body past the
/// writer's limit, 412 (the object changed). Accept: nothing wrong at this level (the status may
/// still be any other code; the reader decides). `writer` is null for HEAD.
attempt_verdict judge_transport(const client::response& response, const range_writer* writer);

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
