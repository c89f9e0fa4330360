#include "conformance/readers/reader_support.hpp"

#include "conformance/s3/hashing.hpp"
#include "text/content_range.hpp"
#include "text/text.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace s3fault::readers {
namespace {

std::string errno_text(std::string_view what, const std::string& path) {
  return std::string(what) + " " + path + ": " + std::strerror(errno);
}

/// "503 SlowDown" or "412": the status with the S3 error code when there is one.
std::string status_and_code(const client::response& response) {
  std::string text = std::to_string(response.status);
  if (response.error && !response.error->code.empty()) {
    text += " " + response.error->code;
  }
  return text;
}

/// The checksums a response can carry for its body, by header name and algorithm.
constexpr std::array<std::pair<std::string_view, std::string_view>, 4> checksum_headers{{
    {"x-amz-checksum-crc32", "crc32"},
    {"x-amz-checksum-crc32c", "crc32c"},
    {"x-amz-checksum-sha1", "sha1"},
    {"x-amz-checksum-sha256", "sha256"},
}};

/// Whether the body is the whole object: no Content-Range (a 200), or one from 0 to the end.
bool body_is_whole_object(const client::response& response) {
  const auto header = response.header("Content-Range");
  if (!header) {
    return true;
  }
  const auto range = text::parse_content_range(*header);
  return range && range->first == 0 && range->last + 1 == range->total;
}

bool is_hex_digit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool is_local_failure(const client::response& response) {
  const auto& ec = response.failure.ec;
  return ec == client::client_errc::local_io || ec == client::client_errc::sink_aborted ||
         ec == client::client_errc::invalid_request;
}

} // namespace

output_file::~output_file() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

bool output_file::open(const std::string& path, std::string& error) {
  path_ = path;
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) {
    error = errno_text("cannot create", path);
    return false;
  }
  return true;
}

bool output_file::write_at(std::uint64_t offset, std::string_view bytes, std::string& error) const {
  while (!bytes.empty()) {
    const ssize_t n = ::pwrite(fd_, bytes.data(), bytes.size(), static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n <= 0) {
      error = errno_text("cannot write to", path_);
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
    offset += static_cast<std::uint64_t>(n);
  }
  return true;
}

bool output_file::resize(std::uint64_t size, std::string& error) const {
  if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
    error = errno_text("cannot set the length of", path_);
    return false;
  }
  return true;
}

std::optional<std::uint64_t> output_file::length() const {
  struct stat info {};
  if (::fstat(fd_, &info) != 0) {
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(info.st_size);
}

bool output_file::read_at(std::uint64_t offset, std::uint64_t length,
                          const std::function<void(std::string_view)>& consume,
                          std::string& error) const {
  std::string buffer(std::min<std::uint64_t>(length, 1024 * 1024), '\0');
  while (length > 0) {
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(length, buffer.size()));
    const ssize_t n = ::pread(fd_, buffer.data(), want, static_cast<off_t>(offset));
    if (n < 0 && errno == EINTR) {
      continue;
    }
    if (n < 0) {
      error = errno_text("cannot read back", path_);
      return false;
    }
    if (n == 0) {
      error = "cannot read back " + path_ + ": it ends before byte " + std::to_string(offset);
      return false;
    }
    consume(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
    offset += static_cast<std::uint64_t>(n);
    length -= static_cast<std::uint64_t>(n);
  }
  return true;
}

client::read_options range_writer::read_options() {
  client::read_options options;
  options.target =
      client::body_target::callback([this](std::string_view chunk) { return deliver(chunk); });
  return options;
}

bool range_writer::deliver(std::string_view chunk) {
  if (limit_ && written_ + chunk.size() > *limit_) {
    problem_ = "the store sent more than the " + std::to_string(*limit_) + " bytes expected";
    return false;
  }
  if (!file_.write_at(offset_ + written_, chunk, problem_)) {
    return false;
  }
  written_ += chunk.size();
  return true;
}

void request_log::line(std::string_view text) {
  // One write per line under the lock: the ranged reader's threads share the stream.
  std::string whole = reader_ + ": ";
  whole += text;
  whole += '\n';
  std::lock_guard lock(mutex_);
  out_ << whole << std::flush;
}

std::string summarize(const client::response& response) {
  if (!response.head_received()) {
    return "no response: " + (response.failure.message.empty() ? std::string("(no detail)")
                                                               : response.failure.message);
  }
  std::string text = status_and_code(response);
  // A complete response without body bytes but with a length is a HEAD: its length is the
  // object's, not a short body.
  const bool head_answer =
      !response.failure && response.body_bytes == 0 && response.content_length.value_or(0) > 0;
  if (head_answer) {
    text += ", Content-Length " + std::to_string(*response.content_length);
  } else {
    text += ", " + std::to_string(response.body_bytes) +
            (response.body_bytes == 1 ? " byte" : " bytes");
    if (response.content_length && *response.content_length != response.body_bytes) {
      text += " of Content-Length " + std::to_string(*response.content_length);
    }
  }
  if (const auto range = response.header("Content-Range")) {
    text += ", Content-Range " + std::string(*range);
  }
  if (const auto count = response.header("x-amz-mp-parts-count")) {
    text += ", parts count " + std::string(*count);
  }
  if (response.failure) {
    text += ", failed: " + response.failure.message;
  }
  return text;
}

std::string describe_status(const client::response& response) {
  if (!response.head_received()) {
    return response.failure.message.empty() ? std::string("no response") : response.failure.message;
  }
  std::string text = std::to_string(response.status);
  if (response.error && !response.error->code.empty()) {
    text += " " + response.error->code;
    if (!response.error->message.empty()) {
      text += " (" + response.error->message + ")";
    }
  } else if (!response.reason.empty()) {
    text += " " + response.reason;
  }
  if (response.failure) {
    text += ", " + response.failure.message;
  }
  return text;
}

attempt_verdict judge_transport(const client::response& response, const range_writer* writer) {
  if (response.failure) {
    if (writer != nullptr && !writer->problem().empty()) {
      return attempt_verdict::fail(writer->problem());
    }
    if (is_local_failure(response)) {
      return attempt_verdict::fail(response.failure.message);
    }
    return attempt_verdict::retry(response.failure.message);
  }
  if (response.status == 500 || response.status == 503) {
    return attempt_verdict::retry(status_and_code(response));
  }
  if (response.status == 412) {
    return attempt_verdict::fail("the object changed since the first read (If-Match refused: " +
                                 status_and_code(response) + ")");
  }
  const bool success = response.status >= 200 && response.status < 300;
  if (writer != nullptr && success && response.content_length &&
      response.body_bytes != *response.content_length) {
    return attempt_verdict::retry("short body: " + std::to_string(response.body_bytes) + " of " +
                                  std::to_string(*response.content_length) + " bytes");
  }
  return attempt_verdict::accept();
}

attempt_verdict verify_body_checksums(const client::response& response, const output_file& file,
                                      std::uint64_t offset, std::uint64_t length) {
  const auto type = response.header("x-amz-checksum-type");
  const bool full_object_type = type && text::iequal(*type, "FULL_OBJECT");
  std::vector<std::string> notes;
  for (const auto& [name, algorithm] : checksum_headers) {
    const auto header = response.header(name);
    if (!header) {
      continue;
    }
    const std::string value(*header);
    const std::string named = std::string(name) + " " + value;
    // Base64 has no '-': "B64-N" is the composite of N part checksums.
    if (value.find('-') != std::string::npos) {
      notes.push_back(named + " is a checksum of part checksums, not of these bytes: not checked");
      continue;
    }
    if (full_object_type && !body_is_whole_object(response)) {
      notes.push_back(named + " is the whole object's (FULL_OBJECT) and this body is part of it: " +
                      "not checked");
      continue;
    }
    const auto expected = s3::base64_decode(value);
    auto checksum = s3::checksum::create(algorithm);
    if (!expected || expected->empty() || !checksum) {
      notes.push_back(named + " is not a base64 digest: not checked");
      continue;
    }
    std::string error;
    if (!file.read_at(
            offset, length, [&](std::string_view bytes) { checksum->update(bytes); }, error)) {
      return attempt_verdict::fail(error);
    }
    const auto actual = checksum->base64_digest();
    if (s3::base64_decode(actual) != expected) {
      return attempt_verdict::retry(std::string(name) + " mismatch: expected " + value + ", got " +
                                    actual + " over the " + std::to_string(length) +
                                    " bytes received");
    }
    notes.push_back(std::string(name) + " checked");
  }
  if (notes.empty()) {
    return attempt_verdict::accept("no x-amz-checksum-* in the response: bytes not checked");
  }
  std::string note;
  for (const auto& text : notes) {
    note += (note.empty() ? "" : "; ") + text;
  }
  return attempt_verdict::accept(note);
}

std::optional<std::string> etag_md5(const client::response& response, std::string& why_not) {
  const auto etag = response.header("ETag");
  if (!etag || etag->empty()) {
    why_not = "no ETag";
    return std::nullopt;
  }
  const std::string quoted(*etag);
  if (const auto sse = response.header("x-amz-server-side-encryption");
      sse && text::iequal(sse->substr(0, 7), "aws:kms")) {
    why_not = "ETag " + quoted + " of an SSE-KMS object is not its MD5";
    return std::nullopt;
  }
  if (response.has_header("x-amz-server-side-encryption-customer-algorithm")) {
    why_not = "ETag " + quoted + " of an SSE-C object is not its MD5";
    return std::nullopt;
  }
  if (quoted.find('-') != std::string::npos) {
    why_not = "ETag " + quoted + " is a multipart ETag (an MD5 of part MD5s), not the object's MD5";
    return std::nullopt;
  }
  const bool md5_form = quoted.size() == 34 && quoted.front() == '"' && quoted.back() == '"' &&
                        std::all_of(quoted.begin() + 1, quoted.end() - 1, is_hex_digit);
  if (!md5_form) {
    why_not = "ETag " + quoted + " is not a quoted MD5";
    return std::nullopt;
  }
  return text::ascii_lower(std::string_view(quoted).substr(1, 32));
}

std::string compare_md5(const output_file& file, std::uint64_t size, std::string_view md5_hex,
                        std::string_view etag) {
  s3::digest_stream md5(s3::digest_stream::kind::md5);
  std::string error;
  if (!file.read_at(
          0, size, [&](std::string_view bytes) { md5.update(bytes); }, error)) {
    return error;
  }
  const auto actual = s3::to_hex(md5.finish_raw());
  if (actual == text::ascii_lower(md5_hex)) {
    return {};
  }
  return "MD5 of the object (" + actual + ") does not match its ETag " + std::string(etag) +
         ": the bytes were damaged on the way";
}

std::chrono::milliseconds request_runner::backoff_before(unsigned next_attempt) const {
  // Doubling from the first backoff up to a cap; jittered to [half, whole] so that parallel
  // readers hit by the same SlowDown do not come back in step.
  using rep = std::chrono::milliseconds::rep;
  const rep cap = std::max<rep>(first_backoff_.count(), 20000);
  rep ceiling = std::max<rep>(first_backoff_.count(), 0);
  for (unsigned attempt = 2; attempt < next_attempt && ceiling < cap; ++attempt) {
    ceiling *= 2;
  }
  ceiling = std::min(ceiling, cap);
  if (ceiling <= 1) {
    return std::chrono::milliseconds(ceiling);
  }
  thread_local std::mt19937_64 engine{std::random_device{}()};
  std::uniform_int_distribution<rep> pick(ceiling / 2, ceiling);
  return std::chrono::milliseconds(pick(engine));
}

request_runner::outcome
request_runner::run(std::string_view what, const std::function<client::response()>& send,
                    const std::function<attempt_verdict(const client::response&)>& judge) {
  outcome result;
  for (unsigned attempt = 1;; ++attempt) {
    ++requests_;
    if (attempt > 1) {
      ++retries_;
    }
    result.response = send();
    const auto verdict = judge(result.response);
    std::string line = std::string(what) + " -> " + summarize(result.response);
    if (attempt > 1 || verdict.what == attempt_verdict::kind::retry) {
      line += " [attempt " + std::to_string(attempt) + "/" + std::to_string(max_attempts_) + "]";
    }
    // The reason is often the failure or status the summary already shows.
    if (!verdict.reason.empty() && line.find(verdict.reason) == std::string::npos) {
      line += ": " + verdict.reason;
    }
    switch (verdict.what) {
    case attempt_verdict::kind::accept:
      log_.line(line);
      return result;
    case attempt_verdict::kind::fail:
      log_.line(line);
      result.error = std::string(what) + ": " + verdict.reason;
      return result;
    case attempt_verdict::kind::retry:
      break;
    }
    if (attempt >= max_attempts_) {
      log_.line(line + "; giving up");
      result.error = std::string(what) + ": gave up after " + std::to_string(attempt) +
                     (attempt == 1 ? " attempt" : " attempts") + ", last: " + verdict.reason;
      return result;
    }
    const auto pause = backoff_before(attempt + 1);
    log_.line(line + "; retrying in " + std::to_string(pause.count()) + "ms");
    std::this_thread::sleep_for(pause);
  }
}

read_result failed_read(std::string error, const request_runner& runner, std::uint64_t bytes) {
  read_result result;
  result.ok = false;
  result.error = std::move(error);
  result.bytes_written = bytes;
  result.requests = runner.requests();
  result.retries = runner.retries();
  return result;
}

read_result finished_read(const request_runner& runner, std::uint64_t bytes) {
  read_result result;
  result.ok = true;
  result.bytes_written = bytes;
  result.requests = runner.requests();
  result.retries = runner.retries();
  return result;
}

} // namespace s3fault::readers
