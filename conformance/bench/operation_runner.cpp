#include "conformance/bench/operation_runner.hpp"

#include "conformance/client/socket_wait.hpp"
#include "conformance/readers/reader_support.hpp"
#include "text/content_range.hpp"
#include "text/text.hpp"

#include <algorithm>

namespace s3fault::bench {
namespace {

bool retryable(const client::response& answer) {
  if (answer.failure) {
    // Our own findings are not the store's fault; everything else (resets, timeouts, short
    // bodies) is what SDKs retry.
    const auto& ec = answer.failure.ec;
    return ec != client::client_errc::body_over_cap && ec != client::client_errc::sink_aborted &&
           ec != client::client_errc::local_io && ec != client::client_errc::invalid_request;
  }
  if (answer.status == 500 || answer.status == 502 || answer.status == 503 ||
      answer.status == 504) {
    return true;
  }
  return answer.error &&
         (answer.error->code == "SlowDown" || answer.error->code == "InternalError");
}

client::read_options discard_body(bool hash) {
  client::read_options read;
  read.target = client::body_target::discard();
  read.content_hash = hash;
  return read;
}

} // namespace

operation_runner::operation_runner(const bench_settings& settings, const bench_fixtures& fixtures,
                                   unsigned worker)
    : settings_(settings), fixtures_(fixtures), worker_(worker), client_(settings.client),
      jitter_(settings.seed * 7919 + worker) {}

void operation_runner::backoff(unsigned attempt) {
  const long long doubled = settings_.backoff_base.count() * (1LL << std::min(attempt - 1, 20u));
  const long long ceiling = std::min<long long>(settings_.backoff_cap.count(), doubled);
  std::uniform_int_distribution<long long> pause(0, ceiling);
  client::pause_for(std::chrono::milliseconds(pause(jitter_))); // a fiber's pause frees its thread
}

template <class Send>
client::response operation_runner::send_with_retries(Send&& send, operation_outcome& outcome) {
  for (unsigned attempt = 1;; ++attempt) {
    const auto attempt_started = clock::now();
    auto answer = send();
    if (!retryable(answer) || attempt >= settings_.max_attempts) {
      if (!first_byte_seen_ && answer.head_received()) {
        outcome.ttfb = (attempt_started - started_) + answer.timing.first_byte;
        first_byte_seen_ = true;
      }
      return answer;
    }
    ++outcome.retries;
    backoff(attempt);
  }
}

template <class Send>
auto operation_runner::send_parsed_with_retries(Send&& send, operation_outcome& outcome) {
  decltype(send()) parsed;
  send_with_retries(
      [&] {
        parsed = send();
        return parsed.raw;
      },
      outcome);
  return parsed;
}

operation_outcome operation_runner::run(const cell& c, std::uint64_t index) {
  operation_outcome outcome;
  started_ = clock::now();
  first_byte_seen_ = false;
  const operation op =
      c.op == operation::mix ? pick_from_mix(settings_.mix, index, settings_.seed) : c.op;
  switch (op) {
  case operation::put:
    run_put(c, index, outcome);
    break;
  case operation::get:
    run_get(c, index, outcome);
    break;
  case operation::get_parts:
    run_get_parts(c, index, outcome);
    break;
  case operation::get_ranges:
    run_get_ranges(c, index, outcome);
    break;
  case operation::list:
    run_list(c, outcome);
    break;
  case operation::delete_object:
    run_delete(c, index, outcome);
    break;
  case operation::put_multipart:
    run_put_multipart(c, index, outcome);
    break;
  case operation::mix: // validate() keeps mix out of its own operations
    outcome.error = "mix inside a mix";
    break;
  }
  outcome.latency = clock::now() - started_;
  return outcome;
}

client::response operation_runner::put_content(const std::string& key, const cell& c,
                                               std::uint64_t index, operation_outcome& outcome) {
  client::put_options options;
  options.payload = client::payload_signing::unsigned_payload;
  return send_with_retries(
      [&] {
        return client_.put_object(fixtures_.bucket(), key,
                                  client::body_source::from_view(fixtures_.content(c.size, index)),
                                  options);
      },
      outcome);
}

void operation_runner::run_put(const cell& c, std::uint64_t index, operation_outcome& outcome) {
  const auto key = fixtures_.put_key(c.size, index);
  const auto answer = put_content(key, c, index, outcome);
  if (!answer.ok()) {
    outcome.error = "PUT " + key + ": " + answer.describe();
    return;
  }
  if (settings_.verify) {
    const std::string expected = "\"" + fixtures_.md5_of(index, 0, c.size) + "\"";
    const auto etag = answer.header("ETag").value_or("");
    if (etag != expected) {
      outcome.error =
          "PUT " + key + ": ETag " + std::string(etag) + ", the body's MD5 is " + expected;
      return;
    }
  }
  outcome.bytes = c.size;
  outcome.ok = true;
}

void operation_runner::run_get(const cell& c, std::uint64_t index, operation_outcome& outcome) {
  const auto key = fixtures_.single_key(c.size, index);
  client::get_options options;
  options.read = discard_body(settings_.verify);
  const auto answer = send_with_retries(
      [&] { return client_.get_object(fixtures_.bucket(), key, options); }, outcome);
  outcome.bytes = answer.body_bytes;
  if (!answer.ok()) {
    outcome.error = "GET " + key + ": " + answer.describe();
    return;
  }
  if (answer.body_bytes != c.size) {
    outcome.error = "GET " + key + ": " + std::to_string(answer.body_bytes) + " of " +
                    std::to_string(c.size) + " bytes";
    return;
  }
  if (settings_.verify && answer.body_content_hash != fixtures_.content_hash_of(index, 0, c.size)) {
    outcome.error = "GET " + key + ": the body's bytes differ from the object's (content hash)";
    return;
  }
  outcome.ok = true;
}

void operation_runner::run_get_parts(const cell& c, std::uint64_t index,
                                     operation_outcome& outcome) {
  const auto key = fixtures_.multipart_key(c.size, index);
  std::uint64_t received = 0;
  long parts = 1;
  for (long part = 1; part <= parts; ++part) {
    client::get_options options;
    options.part_number = part;
    options.read = discard_body(settings_.verify);
    const auto answer = send_with_retries(
        [&] { return client_.get_object(fixtures_.bucket(), key, options); }, outcome);
    outcome.bytes += answer.body_bytes;
    const std::string what = "GET " + key + "?partNumber=" + std::to_string(part) + ": ";
    if (!answer.ok()) {
      outcome.error = what + answer.describe();
      return;
    }
    std::uint64_t first = 0;
    if (answer.status == 200 && part == 1) {
      // The store sent the whole object (it ignores partNumber): still one correct read, but
      // not the part-wise read the cell is meant to time.
      parts = 1;
      outcome.note = "the store answered ?partNumber=1 with the whole object (200): get-parts "
                     "timed whole-object GETs";
    } else {
      const auto range = text::parse_content_range(answer.header("Content-Range").value_or(""));
      if (answer.status != 206 || !range) {
        outcome.error = what + answer.describe() + ", not 206 with a Content-Range";
        return;
      }
      first = range->first;
      if (range->total != c.size || range->first != received ||
          range->last - range->first + 1 != answer.body_bytes) {
        outcome.error = what + "Content-Range " +
                        std::string(answer.header("Content-Range").value_or("")) + " with " +
                        std::to_string(answer.body_bytes) + " body bytes after " +
                        std::to_string(received) + " of " + std::to_string(c.size);
        return;
      }
      if (part == 1) {
        const auto count = answer.header("x-amz-mp-parts-count");
        const auto parsed = count ? text::parse_whole_number(*count) : std::nullopt;
        if (parsed && *parsed >= 1 && *parsed <= 10000) {
          parts = static_cast<long>(*parsed);
        } else if (count) {
          outcome.error =
              what + "x-amz-mp-parts-count: " + std::string(*count) + " is not a part count";
          return;
        } else if (answer.body_bytes < c.size) {
          outcome.error = what + "206 with " + std::to_string(answer.body_bytes) + " of " +
                          std::to_string(c.size) + " bytes and no x-amz-mp-parts-count";
          return;
        }
      }
    }
    if (settings_.verify &&
        answer.body_content_hash != fixtures_.content_hash_of(index, first, answer.body_bytes)) {
      outcome.error = what + "the body differs from the object's bytes " + std::to_string(first) +
                      "-" + std::to_string(first + answer.body_bytes);
      return;
    }
    received += answer.body_bytes;
  }
  if (received != c.size) {
    outcome.error = "GET " + key + " in " + std::to_string(parts) +
                    " parts: " + std::to_string(received) + " of " + std::to_string(c.size) +
                    " bytes";
    return;
  }
  outcome.ok = true;
}

void operation_runner::run_get_ranges(const cell& c, std::uint64_t index,
                                      operation_outcome& outcome) {
  const auto key = fixtures_.single_key(c.size, index);
  for (std::uint64_t offset = 0; offset < c.size; offset += settings_.part_size) {
    const std::uint64_t length = std::min(settings_.part_size, c.size - offset);
    client::get_options options;
    options.range = client::byte_range(offset, offset + length - 1);
    options.read = discard_body(settings_.verify);
    const auto answer = send_with_retries(
        [&] { return client_.get_object(fixtures_.bucket(), key, options); }, outcome);
    outcome.bytes += answer.body_bytes;
    const std::string what = "GET " + key + " Range: " + options.range + ": ";
    if (!answer.ok()) {
      outcome.error = what + answer.describe();
      return;
    }
    const bool whole_answer = answer.status == 200 && offset == 0 && length == c.size;
    const auto range = text::parse_content_range(answer.header("Content-Range").value_or(""));
    const bool range_answer =
        answer.status == 206 && range && range->first == offset && range->total == c.size;
    if ((!whole_answer && !range_answer) || answer.body_bytes != length) {
      outcome.error = what + answer.describe() + ", Content-Range " +
                      std::string(answer.header("Content-Range").value_or("(none)")) +
                      "; expected 206 with " + std::to_string(length) + " bytes";
      return;
    }
    if (settings_.verify &&
        answer.body_content_hash != fixtures_.content_hash_of(index, offset, length)) {
      outcome.error = what + "the body's bytes differ from the object's (content hash)";
      return;
    }
  }
  outcome.ok = true;
}

void operation_runner::run_list(const cell& c, operation_outcome& outcome) {
  client::list_objects_options options;
  options.prefix = fixtures_.single_prefix(c.size);
  const std::string what = "LIST " + options.prefix + ": ";
  std::size_t keys = 0;
  // Every page: one operation lists the whole prepared set (--objects may exceed a page).
  for (int page = 1;; ++page) {
    const auto listed = send_parsed_with_retries(
        [&] { return client_.list_objects_v2(fixtures_.bucket(), options); }, outcome);
    outcome.bytes += listed.raw.body_bytes;
    if (!listed.ok()) {
      outcome.error = what + "page " + std::to_string(page) + ": " + listed.raw.describe() +
                      (listed.parse_error.empty() ? "" : ", " + listed.parse_error);
      return;
    }
    keys += listed.value->contents.size();
    if (!listed.value->is_truncated) {
      break;
    }
    if (listed.value->next_continuation_token.empty() || page == 100000) {
      outcome.error =
          what + "page " + std::to_string(page) + " is truncated without a NextContinuationToken";
      return;
    }
    options.continuation_token = listed.value->next_continuation_token;
  }
  if (keys != fixtures_.objects()) {
    outcome.error = what + std::to_string(keys) + " keys, " + std::to_string(fixtures_.objects()) +
                    " were written";
    return;
  }
  outcome.ok = true;
}

void operation_runner::run_delete(const cell& c, std::uint64_t index, operation_outcome& outcome) {
  const auto key = fixtures_.delete_key(c.size, worker_, index);
  const auto written = put_content(key, c, index, outcome);
  if (!written.ok()) {
    outcome.error = "PUT " + key + " (to delete it): " + written.describe();
    return;
  }
  // Only the DELETE is timed.
  started_ = clock::now();
  first_byte_seen_ = false;
  const auto answer =
      send_with_retries([&] { return client_.delete_object(fixtures_.bucket(), key); }, outcome);
  if (!answer.ok()) {
    outcome.error = "DELETE " + key + ": " + answer.describe();
    return;
  }
  outcome.ok = true;
}

void operation_runner::run_put_multipart(const cell& c, std::uint64_t index,
                                         operation_outcome& outcome) {
  const auto key = fixtures_.multipart_put_key(c.size, index);
  const auto created = send_parsed_with_retries(
      [&] { return client_.create_multipart_upload(fixtures_.bucket(), key); }, outcome);
  if (!created.ok()) {
    outcome.error = "CreateMultipartUpload " + key + ": " + created.raw.describe();
    return;
  }
  const auto upload_id = created.value->upload_id;
  const auto abort_with = [&](std::string error) {
    outcome.error = std::move(error);
    client_.abort_multipart_upload(fixtures_.bucket(), key, upload_id);
  };
  const auto bytes = fixtures_.content(c.size, index);
  client::upload_part_options part_options;
  part_options.payload = client::payload_signing::unsigned_payload;
  std::vector<client::completed_part> parts;
  for (std::uint64_t offset = 0; offset < c.size; offset += settings_.part_size) {
    const int number = static_cast<int>(parts.size()) + 1;
    const auto length = std::min(settings_.part_size, c.size - offset);
    const auto answer = send_with_retries(
        [&] {
          return client_.upload_part(fixtures_.bucket(), key, upload_id, number,
                                     client::body_source::from_view(bytes.substr(offset, length)),
                                     part_options);
        },
        outcome);
    const std::string what = "UploadPart " + std::to_string(number) + " of " + key + ": ";
    if (!answer.ok()) {
      return abort_with(what + answer.describe());
    }
    const std::string etag(answer.header("ETag").value_or(""));
    if (settings_.verify && etag != "\"" + fixtures_.md5_of(index, offset, length) + "\"") {
      return abort_with(what + "ETag " + etag + ", the part's MD5 is \"" +
                        fixtures_.md5_of(index, offset, length) + "\"");
    }
    client::completed_part part;
    part.part_number = number;
    part.etag = etag;
    parts.push_back(std::move(part));
  }
  const auto completed = send_parsed_with_retries(
      [&] { return client_.complete_multipart_upload(fixtures_.bucket(), key, upload_id, parts); },
      outcome);
  if (!completed.ok()) {
    return abort_with("CompleteMultipartUpload " + key + ": " + completed.raw.describe() +
                      (completed.parse_error.empty() ? "" : ", " + completed.parse_error));
  }
  // A multipart ETag ends in -N, N the count of parts (docs/contract.md: multipart ETags).
  const std::string suffix = "-" + std::to_string(parts.size());
  std::string_view etag = completed.value->etag;
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
    etag = etag.substr(1, etag.size() - 2);
  }
  if (settings_.verify &&
      (etag.size() < suffix.size() || etag.substr(etag.size() - suffix.size()) != suffix)) {
    outcome.error = "CompleteMultipartUpload " + key + ": ETag " + completed.value->etag +
                    " does not end in " + suffix + " (the count of parts)";
    return;
  }
  outcome.bytes = c.size;
  outcome.ok = true;
}

} // namespace s3fault::bench
