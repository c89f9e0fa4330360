// ranged: the range-wise reader of SDK transfer managers and parallel downloaders.
//
//   HEAD ──> SIZE (Content-Length), ETag
//     └─ ranges [0, R), [R, 2R), ... handed out to `concurrency` threads, each with its own
//        client: GET Range bytes=A-B, If-Match ──206, Content-Range bytes A-B/SIZE, B-A+1 bytes──>
//        pwrite at A
//   every range accounted for and the file SIZE bytes long, else fail
//   ETag a quoted MD5 (one PUT): MD5 of the output file == ETag, else fail
//
// A zero-byte object needs no ranged GET (any range of it is a 416): the empty file is made.
// The first failing range stops the others from taking new work.
//
// What this reader cannot check: a ranged GET carries no x-amz-checksum-* (S3 and the origin
// send one only for a whole object or a part), so the bytes of a range are taken as they come.
// The whole file is checked only through an MD5 ETag, which only a one-PUT object has. A
// multipart object's ETag "MD5-N" is the MD5 of the parts' MD5s and its checksum "B64-N" a
// checksum of part checksums: neither can be checked without the part boundaries, which ranges
// of `range_size` do not follow. Bytes damaged on the way in a multipart object therefore pass,
// and the read reports success (tests/conformance/readers/corrupted_bytes_test.cpp asserts it).
#include "conformance/readers/reader_support.hpp"
#include "text/content_range.hpp"

#include <algorithm>
#include <thread>
#include <vector>

namespace s3fault::readers {
namespace {

/// What HEAD told: the object's size and its ETag.
struct object_identity {
  std::uint64_t size = 0;
  std::string etag;
  std::optional<std::string> md5; // the MD5 the ETag promises (one-PUT objects)
  std::string md5_missing;        // why the ETag promises none
};

class ranged_read {
public:
  ranged_read(const read_request& request, std::ostream& log)
      : request_(request), log_(log, "ranged"), runner_(request, log_) {}

  read_result run() {
    std::string error;
    if (request_.range_size == 0 || request_.concurrency == 0) {
      return failed_read("range size and concurrency must be at least 1", runner_, 0);
    }
    if (!output_.open(request_.output_path, error)) {
      return failed_read(error, runner_, 0);
    }
    const auto identity = head_object(error);
    if (!identity) {
      return failed_read(error, runner_, 0);
    }
    object_ = *identity;
    if (object_.size == 0) {
      return finished_read(runner_, 0);
    }
    range_count_ = (object_.size + request_.range_size - 1) / request_.range_size;
    const auto threads =
        static_cast<unsigned>(std::min<std::uint64_t>(request_.concurrency, range_count_));
    std::vector<std::thread> workers;
    workers.reserve(threads);
    for (unsigned i = 0; i < threads; ++i) {
      workers.emplace_back([this] { read_ranges(); });
    }
    for (auto& worker : workers) {
      worker.join();
    }
    if (!first_error_.empty()) {
      return failed_read(first_error_, runner_, bytes_);
    }
    if (!check_length(error) || !check_md5(error)) {
      return failed_read(error, runner_, bytes_);
    }
    return finished_read(runner_, bytes_);
  }

private:
  std::optional<object_identity> head_object(std::string& error) {
    std::optional<client::s3_client> client;
    try {
      client.emplace(request_.client);
    } catch (const std::exception& problem) {
      error = problem.what();
      return std::nullopt;
    }
    const auto outcome = runner_.run(
        "HEAD", [&] { return client->head_object(request_.bucket, request_.key); },
        [](const client::response& response) {
          if (auto verdict = judge_transport(response, nullptr);
              verdict.what != attempt_verdict::kind::accept) {
            return verdict;
          }
          if (response.status != 200) {
            return attempt_verdict::fail("expected 200, got " + describe_status(response));
          }
          if (!response.content_length) {
            return attempt_verdict::fail("no Content-Length: the object's size is unknown");
          }
          return attempt_verdict::accept();
        });
    if (!outcome.ok()) {
      error = outcome.error;
      return std::nullopt;
    }
    object_identity identity;
    identity.size = *outcome.response.content_length;
    identity.etag = std::string(outcome.response.header("ETag").value_or(""));
    identity.md5 = etag_md5(outcome.response, identity.md5_missing);
    return identity;
  }

  /// One thread: takes the next range until none is left or a range has failed.
  void read_ranges() {
    std::optional<client::s3_client> client;
    try {
      client.emplace(request_.client);
    } catch (const std::exception& problem) {
      record_failure(problem.what());
      return;
    }
    while (!stop_) {
      const auto index = next_range_++;
      if (index >= range_count_) {
        return;
      }
      const auto first = index * request_.range_size;
      const auto last = std::min<std::uint64_t>(first + request_.range_size, object_.size) - 1;
      std::string error;
      if (!read_range(*client, first, last, error)) {
        record_failure(error);
        return;
      }
      bytes_ += last - first + 1;
    }
  }

  bool read_range(client::s3_client& client, std::uint64_t first, std::uint64_t last,
                  std::string& error) {
    const std::string range = client::byte_range(first, last);
    const std::uint64_t length = last - first + 1;
    // A fresh writer per attempt: a retry starts again at `first`.
    std::optional<range_writer> writer;
    const auto outcome = runner_.run(
        "GET Range " + range,
        [&] {
          writer.emplace(output_, first, length);
          client::get_options options;
          options.range = range;
          options.if_match = object_.etag;
          options.read = writer->read_options();
          return client.get_object(request_.bucket, request_.key, options);
        },
        [&](const client::response& response) {
          return judge_range(response, *writer, first, last);
        });
    if (!outcome.ok()) {
      error = outcome.error;
      return false;
    }
    return true;
  }

  attempt_verdict judge_range(const client::response& response, const range_writer& writer,
                              std::uint64_t first, std::uint64_t last) const {
    if (auto verdict = judge_transport(response, &writer);
        verdict.what != attempt_verdict::kind::accept) {
      return verdict;
    }
    if (response.status != 206) {
      return attempt_verdict::fail("expected 206, got " + describe_status(response));
    }
    const auto header = response.header("Content-Range");
    const auto parsed = header ? text::parse_content_range(*header) : std::nullopt;
    if (!parsed) {
      return attempt_verdict::fail("206 without a readable Content-Range");
    }
    if (parsed->total != object_.size) {
      return attempt_verdict::fail("the object changed size: Content-Range total " +
                                   std::to_string(parsed->total) + ", HEAD said " +
                                   std::to_string(object_.size));
    }
    if (parsed->first != first || parsed->last != last) {
      return attempt_verdict::fail("Content-Range " + std::string(*header) +
                                   " is not the range asked for");
    }
    if (response.body_bytes != parsed->length()) {
      return attempt_verdict::retry(std::to_string(response.body_bytes) + " bytes for a range of " +
                                    std::to_string(parsed->length()));
    }
    if (const auto etag = response.header("ETag");
        etag && !object_.etag.empty() && *etag != object_.etag) {
      return attempt_verdict::fail("the object changed since HEAD (ETag " + std::string(*etag) +
                                   ", HEAD said " + object_.etag + ")");
    }
    return attempt_verdict::accept();
  }

  void record_failure(const std::string& error) {
    std::lock_guard lock(error_mutex_);
    if (first_error_.empty()) {
      first_error_ = error;
    }
    stop_ = true;
  }

  /// Every range read, and the file as long as the object.
  bool check_length(std::string& error) const {
    if (bytes_ != object_.size) {
      error = "read " + std::to_string(bytes_.load()) + " bytes of an object of " +
              std::to_string(object_.size);
      return false;
    }
    if (output_.length() != object_.size) {
      error = "the output file is not " + std::to_string(object_.size) + " bytes long";
      return false;
    }
    return true;
  }

  /// The whole object is in the file: when its ETag is an MD5 (one PUT), the bytes must have it.
  /// The only check of the bytes themselves this reader can make (see the top of this file).
  bool check_md5(std::string& error) {
    if (!object_.md5) {
      log_.line("MD5 not checked: " + object_.md5_missing +
                "; ranged GETs carry no checksum, the bytes are unchecked");
      return true;
    }
    error = compare_md5(output_, object_.size, *object_.md5, object_.etag);
    if (!error.empty()) {
      log_.line(error);
      return false;
    }
    log_.line("MD5 of the object matches its ETag " + object_.etag);
    return true;
  }

  const read_request& request_;
  request_log log_;
  request_runner runner_;
  output_file output_;
  object_identity object_;
  std::uint64_t range_count_ = 0;
  std::atomic<std::uint64_t> next_range_{0};
  std::atomic<std::uint64_t> bytes_{0};
  std::atomic<bool> stop_{false};
  std::mutex error_mutex_;
  std::string first_error_;
};

} // namespace

read_result read_ranged(const read_request& request, std::ostream& log) {
  return ranged_read(request, log).run();
}

} // namespace s3fault::readers
