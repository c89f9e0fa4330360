#include "conformance/audit/check_context.hpp"

#include "conformance/audit/exchange_capture.hpp"

#include "conformance/s3/hashing.hpp"

#include <algorithm>
#include <chrono>

namespace s3fault::audit {
namespace {

client::get_options with_hashed_body(client::get_options options) {
  options.read.target = client::body_target::memory();
  options.read.sha256 = true;
  return options;
}

std::string in_quotes(std::string_view text) {
  return "\"" + std::string(text) + "\"";
}

std::string prefixed(std::string_view what, std::string text) {
  if (what.empty()) {
    return text;
  }
  return std::string(what) + ": " + text;
}

/// What the store sent in place of a missing or wrong body, for observed texts.
std::string describe_status(const client::response& response) {
  if (!response.head_received()) {
    return "no response (" + response.failure.message + ")";
  }
  std::string text = "status " + std::to_string(response.status);
  if (response.error && !response.error->code.empty()) {
    text += " " + response.error->code;
  }
  if (response.failure) {
    text += " (" + response.failure.message + ")";
  }
  return text;
}

} // namespace

check_context::check_context(client::s3_client& client, const fixture_set& fixtures,
                             check_outcome& outcome)
    : client_(client), fixtures_(fixtures), outcome_(outcome) {}

client::response check_context::recorded(client::response response, std::string request) {
  record(response, std::move(request));
  return response;
}

const client::response& check_context::record(const client::response& response,
                                              std::string request) {
  cite(capture_exchange(response, std::move(request)));
  if (!response.head_received() && !error_) {
    error_ = outcome_.exchanges.back().request + ": no response: " + response.failure.message;
  }
  return response;
}

void check_context::cite(exchange_record exchange) {
  outcome_.exchanges.push_back(std::move(exchange));
}

client::response check_context::get_key(std::string_view bucket, std::string_view key,
                                        const client::get_options& options) {
  return recorded(client_.get_object(bucket, key, with_hashed_body(options)),
                  describe_request("GET", bucket, key, options));
}

client::response check_context::head_key(std::string_view bucket, std::string_view key,
                                         const client::get_options& options) {
  return recorded(client_.head_object(bucket, key, options),
                  describe_request("HEAD", bucket, key, options));
}

client::response check_context::get(const fixture& object, const client::get_options& options) {
  return get_key(fixtures_.bucket, object.key, options);
}

client::response check_context::head(const fixture& object, const client::get_options& options) {
  return head_key(fixtures_.bucket, object.key, options);
}

client::response check_context::get_part(const fixture& object, long part_number,
                                         client::get_options options) {
  options.part_number = part_number;
  return get(object, options);
}

client::response check_context::head_part(const fixture& object, long part_number,
                                          client::get_options options) {
  options.part_number = part_number;
  return head(object, options);
}

void check_context::created_key(std::string key) {
  created_keys_.push_back(std::move(key));
}

bool check_context::expect(bool met, std::string expected, std::string observed) {
  outcome_.expectations.push_back({std::move(expected), std::move(observed), met});
  return met;
}

bool check_context::expect_status(const client::response& response, unsigned status,
                                  std::string_view what) {
  return expect(response.status == status, prefixed(what, "status " + std::to_string(status)),
                prefixed(what, describe_status(response)));
}

bool check_context::expect_header(const client::response& response, std::string_view name,
                                  std::string_view value, std::string_view what) {
  const auto values = response.headers_named(name);
  std::string seen;
  if (values.empty()) {
    seen = "no " + std::string(name);
  } else {
    for (const auto one : values) {
      seen += (seen.empty() ? "" : ", ") + std::string(name) + ": " + std::string(one);
    }
  }
  const bool met = values.size() == 1 && values.front() == value;
  return expect(met, prefixed(what, std::string(name) + ": " + std::string(value)),
                prefixed(what, seen));
}

bool check_context::expect_no_header(const client::response& response, std::string_view name,
                                     std::string_view what) {
  const auto value = response.header(name);
  return expect(!value, prefixed(what, "no " + std::string(name)),
                prefixed(what, value ? std::string(name) + ": " + std::string(*value)
                                     : "no " + std::string(name)));
}

bool check_context::expect_body(const client::response& response, std::string_view bytes,
                                std::string_view what) {
  const std::string expected = prefixed(what, std::to_string(bytes.size()) + " bytes, sha256 " +
                                                  s3::sha256_hex(bytes).substr(0, 16) + "...");
  if (!response.head_received()) {
    return expect(false, expected, prefixed(what, describe_status(response)));
  }
  const std::string_view got = response.body;
  std::string seen = std::to_string(response.body_bytes) + " bytes";
  if (response.body_sha256) {
    seen += ", sha256 " + response.body_sha256->substr(0, 16) + "...";
  }
  if (response.failure) {
    seen += " (" + response.failure.message + ")";
  }
  if (got == bytes && !response.failure) {
    return expect(true, expected, prefixed(what, seen));
  }
  const auto [first_diff, _] =
      std::mismatch(got.begin(), got.begin() + std::min(got.size(), bytes.size()), bytes.begin());
  const auto offset = static_cast<std::size_t>(first_diff - got.begin());
  if (offset < std::min(got.size(), bytes.size())) {
    seen += ", first difference at offset " + std::to_string(offset);
  } else if (got.size() != bytes.size()) {
    seen += got.size() < bytes.size() ? ", a prefix of the expected bytes"
                                      : ", the expected bytes and more";
  }
  return expect(false, expected, prefixed(what, seen));
}

bool check_context::expect_head_error(const client::response& response, unsigned status,
                                      std::string_view what) {
  const bool status_met = expect_status(response, status, what);
  return expect_no_body(response, what) && status_met;
}

bool check_context::expect_no_body(const client::response& response, std::string_view what) {
  return expect(response.head_received() && response.body_bytes == 0, prefixed(what, "no body"),
                prefixed(what, response.head_received()
                                   ? std::to_string(response.body_bytes) + " body bytes"
                                   : describe_status(response)));
}

bool check_context::expect_error(const client::response& response, unsigned status,
                                 std::string_view code, std::string_view what) {
  const bool status_met = expect_status(response, status, what);
  if (!response.head_received() || status_met == false) {
    return false;
  }
  const std::string seen_code = response.error ? response.error->code : std::string();
  return expect(seen_code == code, prefixed(what, "error code " + std::string(code)),
                prefixed(what, seen_code.empty() ? "no S3 error body" : "error code " + seen_code));
}

void check_context::deviation(std::string reason) {
  deviation_ = deviation_ ? *deviation_ + "; " + reason : std::move(reason);
}

void check_context::skip(std::string reason) {
  if (!skip_) {
    skip_ = std::move(reason);
  }
}

void check_context::error(std::string reason) {
  if (!error_) {
    error_ = std::move(reason);
  }
}

void check_context::conclude() {
  const bool all_met = std::all_of(outcome_.expectations.begin(), outcome_.expectations.end(),
                                   [](const expectation& e) { return e.met; });
  if (error_) {
    outcome_.result = verdict::error;
    outcome_.reason = *error_;
  } else if (skip_) {
    outcome_.result = verdict::skip;
    outcome_.reason = *skip_;
  } else if (!all_met) {
    outcome_.result = verdict::fail;
    if (deviation_) {
      outcome_.reason = "also: " + *deviation_;
    }
  } else if (deviation_) {
    outcome_.result = verdict::deviation;
    outcome_.reason = *deviation_;
  } else {
    outcome_.result = verdict::pass;
  }
}

std::string describe_request(std::string_view method, std::string_view bucket, std::string_view key,
                             const client::get_options& options) {
  std::string text = std::string(method) + " /" + std::string(bucket) + "/" + std::string(key);
  std::string query;
  if (options.part_number) {
    query += "partNumber=" + std::to_string(*options.part_number);
  }
  if (!options.version_id.empty()) {
    query += (query.empty() ? "" : "&") + std::string("versionId=") + options.version_id;
  }
  for (const auto& [name, value] : options.extra_query) {
    query += (query.empty() ? "" : "&") + name + (value ? "=" + *value : std::string());
  }
  if (!query.empty()) {
    text += "?" + query;
  }
  std::string headers;
  const auto add = [&headers](std::string_view name, const std::string& value) {
    if (!value.empty()) {
      headers += (headers.empty() ? "" : ", ") + std::string(name) + ": " + value;
    }
  };
  add("Range", options.range);
  add("If-Match", options.if_match);
  add("If-None-Match", options.if_none_match);
  add("If-Modified-Since", options.if_modified_since);
  add("If-Unmodified-Since", options.if_unmodified_since);
  if (options.checksum_mode) {
    add("x-amz-checksum-mode", "ENABLED");
  }
  for (const auto& [name, value] : options.extra_headers) {
    add(name, value);
  }
  if (!headers.empty()) {
    text += " [" + headers + "]";
  }
  return text;
}

std::string unquoted_etag(std::string_view etag) {
  if (etag.size() >= 2 && etag.front() == '"' && etag.back() == '"') {
    etag = etag.substr(1, etag.size() - 2);
  }
  return std::string(etag);
}

std::string md5_etag(std::string_view bytes) {
  return in_quotes(s3::md5_hex(bytes));
}

std::string multipart_etag(const fixture& object) {
  std::string digests;
  for (std::size_t number = 1; number <= object.part_count(); ++number) {
    digests += s3::md5_raw(object.part_bytes(number));
  }
  return in_quotes(s3::md5_hex(digests) + "-" + std::to_string(object.part_count()));
}

} // namespace s3fault::audit
