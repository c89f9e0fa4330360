#include "conformance/origin/payload_receiver.hpp"

#include "text/text.hpp"

#include <algorithm>
#include <array>
#include <cctype>

namespace s3fault::origin {
namespace {

constexpr std::string_view checksum_prefix = "x-amz-checksum-";
constexpr std::array<std::string_view, 4> supported_algorithms = {"crc32", "crc32c", "sha1",
                                                                  "sha256"};

bool is_supported(std::string_view algorithm) {
  return std::find(supported_algorithms.begin(), supported_algorithms.end(), algorithm) !=
         supported_algorithms.end();
}

std::size_t digest_size(std::string_view algorithm) {
  return algorithm == "sha1" ? 20 : algorithm == "sha256" ? 32 : 4;
}

bool is_sha256_hex(std::string_view text) {
  return text.size() == 64 && std::all_of(text.begin(), text.end(), [](char c) {
           return std::isxdigit(static_cast<unsigned char>(c)) != 0;
         });
}

/// x-amz-checksum-<algo> header fields (not -mode, -type, -algorithm).
std::vector<std::pair<std::string, std::string>> checksum_headers(const request_head& head) {
  std::vector<std::pair<std::string, std::string>> found;
  for (const auto& [name, value] : head.headers) {
    const std::string name_lower = text::ascii_lower(name);
    if (!name_lower.starts_with(checksum_prefix)) {
      continue;
    }
    const std::string algorithm = name_lower.substr(checksum_prefix.size());
    if (algorithm == "mode" || algorithm == "type" || algorithm == "algorithm") {
      continue;
    }
    found.emplace_back(algorithm, value);
  }
  return found;
}

} // namespace

std::variant<std::string, s3_error> requested_checksum_algorithm(const request_head& head) {
  std::string algorithm;
  const auto headers = checksum_headers(head);
  if (headers.size() > 1) {
    return errors::invalid_request("Expecting a single x-amz-checksum- header. Multiple checksum "
                                   "Types are not allowed.");
  }
  if (!headers.empty()) {
    algorithm = headers.front().first;
  } else if (auto trailer = head.header("x-amz-trailer")) {
    const std::string name = text::ascii_lower(*trailer);
    if (!name.starts_with(checksum_prefix)) {
      return errors::invalid_request("The value specified in the x-amz-trailer header is not "
                                     "supported");
    }
    algorithm = name.substr(checksum_prefix.size());
  } else if (auto sdk = head.header("x-amz-sdk-checksum-algorithm")) {
    algorithm = text::ascii_lower(*sdk);
  }
  if (!algorithm.empty() && !is_supported(algorithm)) {
    return errors::invalid_request("Checksum algorithm '" + text::ascii_upper(algorithm) +
                                   "' is not supported by the s3fault origin (CRC32, CRC32C, "
                                   "SHA1, SHA256 are)");
  }
  return algorithm;
}

std::optional<s3_error> check_small_body(const request_head& head, std::string_view body,
                                         bool check_checksums) {
  const std::string content_sha256(head.header("x-amz-content-sha256").value_or(""));
  if (is_sha256_hex(content_sha256)) {
    const std::string computed = s3::sha256_hex(body);
    if (computed != text::ascii_lower(content_sha256)) {
      return errors::content_sha256_mismatch(content_sha256, computed);
    }
  }
  if (auto md5 = head.header("content-md5")) {
    const auto raw = s3::base64_decode(*md5);
    if (!raw || raw->size() != 16) {
      return errors::invalid_digest("The Content-MD5 you specified was invalid.");
    }
    if (*raw != s3::md5_raw(body)) {
      return errors::bad_digest("The Content-MD5 you specified did not match what we received.");
    }
  }
  for (const auto& [algorithm, value] : checksum_headers(head)) {
    if (!check_checksums) {
      break;
    }
    auto sum = s3::checksum::create(algorithm);
    if (!sum) {
      continue; // an algorithm the origin cannot compute: nothing to check it against
    }
    sum->update(body);
    if (sum->base64_digest() != value) {
      return errors::bad_digest("The " + text::ascii_upper(algorithm) +
                                " you specified did not match the calculated checksum.");
    }
  }
  return std::nullopt;
}

std::variant<std::unique_ptr<payload_receiver>, s3_error>
payload_receiver::start(const request_head& head, const std::optional<s3::signing_context>& signing,
                        object_store& store, std::uint64_t max_size) {
  std::unique_ptr<payload_receiver> self(new payload_receiver());
  self->max_size_ = max_size;

  // How the body is framed and what its hash claims.
  const std::string content_sha256(head.header("x-amz-content-sha256").value_or(""));
  const bool streaming = content_sha256.starts_with("STREAMING-");
  const bool chunked_encoding =
      text::ascii_lower(head.header("content-encoding").value_or("")).find("aws-chunked") !=
      std::string::npos;
  if (streaming) {
    const bool known = content_sha256 == s3::streaming_signed_payload ||
                       content_sha256 == s3::streaming_signed_payload_trailer ||
                       content_sha256 == s3::streaming_unsigned_payload_trailer;
    if (!known) {
      return errors::invalid_argument("x-amz-content-sha256 must be UNSIGNED-PAYLOAD, "
                                      "STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER], "
                                      "STREAMING-UNSIGNED-PAYLOAD-TRAILER or a SHA-256 value",
                                      "x-amz-content-sha256", content_sha256);
    }
  } else if (is_sha256_hex(content_sha256)) {
    self->expected_sha256_ = text::ascii_lower(content_sha256);
    self->sha256_ = std::make_unique<s3::digest_stream>(s3::digest_stream::kind::sha256);
  } else if (!content_sha256.empty() && content_sha256 != s3::unsigned_payload) {
    return errors::invalid_argument("x-amz-content-sha256 must be UNSIGNED-PAYLOAD, "
                                    "STREAMING-AWS4-HMAC-SHA256-PAYLOAD[-TRAILER], "
                                    "STREAMING-UNSIGNED-PAYLOAD-TRAILER or a SHA-256 value",
                                    "x-amz-content-sha256", content_sha256);
  }
  if (streaming || chunked_encoding) {
    aws_chunked_decoder::settings settings;
    settings.signed_chunks = content_sha256 == s3::streaming_signed_payload ||
                             content_sha256 == s3::streaming_signed_payload_trailer;
    settings.trailer = content_sha256 == s3::streaming_signed_payload_trailer ||
                       content_sha256 == s3::streaming_unsigned_payload_trailer ||
                       head.has_header("x-amz-trailer");
    // Anonymous mode has no signing key: chunk signatures are parsed, not checked.
    settings.context = signing;
    self->decoder_.emplace(std::move(settings));
    const auto decoded = head.header("x-amz-decoded-content-length");
    if (decoded) {
      self->expected_size_ = text::parse_whole_number(*decoded);
      if (!self->expected_size_) {
        return errors::invalid_argument("x-amz-decoded-content-length is not a number",
                                        "x-amz-decoded-content-length", *decoded);
      }
    } else if (!head.content_length && !head.chunked) {
      return errors::missing_content_length();
    }
  } else {
    if (!head.content_length && !head.chunked) {
      return errors::missing_content_length();
    }
    self->expected_size_ = head.content_length;
  }
  if (self->expected_size_ && *self->expected_size_ > max_size) {
    return errors::entity_too_large(*self->expected_size_, max_size);
  }

  // Content-MD5.
  if (auto md5 = head.header("content-md5")) {
    auto raw = s3::base64_decode(*md5);
    if (!raw || raw->size() != 16) {
      return errors::invalid_digest("The Content-MD5 you specified was invalid.");
    }
    self->content_md5_raw_ = std::move(*raw);
  }

  // Flexible checksum: a header value now, or a trailer at the end.
  const auto algorithm = requested_checksum_algorithm(head);
  if (const auto* error = std::get_if<s3_error>(&algorithm)) {
    return *error;
  }
  const std::string& name = std::get<std::string>(algorithm);
  if (!name.empty()) {
    self->checksum_ = s3::checksum::create(name);
    const auto given = head.header(std::string(checksum_prefix) + name);
    const auto trailer = head.header("x-amz-trailer");
    if (given) {
      const auto raw = s3::base64_decode(*given);
      if (!raw || raw->size() != digest_size(name)) {
        return errors::invalid_request("Value for x-amz-checksum-" + name + " header is invalid.");
      }
      self->expected_checksum_ = std::string(*given);
    } else if (trailer && self->decoder_) {
      self->trailer_name_ = text::ascii_lower(*trailer);
    } else {
      return errors::invalid_request("x-amz-sdk-checksum-algorithm specified, but no "
                                     "corresponding x-amz-checksum-* or x-amz-trailer headers "
                                     "were found.");
    }
  }

  self->md5_ = std::make_unique<s3::digest_stream>(s3::digest_stream::kind::md5);
  self->writer_ = store.new_blob(self->expected_size_.value_or(0));
  return self;
}

std::optional<s3_error> payload_receiver::take_payload(std::string_view payload) {
  size_ += payload.size();
  if (size_ > max_size_) {
    return errors::entity_too_large(size_, max_size_);
  }
  if (expected_size_ && size_ > *expected_size_) {
    return errors::invalid_request("The request body is longer than its declared length.");
  }
  md5_->update(payload);
  if (checksum_) {
    checksum_->update(payload);
  }
  try {
    writer_->write(payload);
  } catch (const std::exception& error) {
    return errors::internal_error(std::string("storage failure: ") + error.what());
  }
  return std::nullopt;
}

std::optional<s3_error> payload_receiver::consume(std::string_view bytes) {
  if (sha256_) {
    sha256_->update(bytes);
  }
  if (!decoder_) {
    return take_payload(bytes);
  }
  decoded_.clear();
  const bool ok = decoder_->feed(bytes, decoded_);
  if (!decoded_.empty()) {
    if (auto error = take_payload(decoded_)) {
      return error;
    }
  }
  if (!ok) {
    if (decoder_->failed() == aws_chunked_decoder::failure::signature) {
      return errors::from_table(s3_errors::known_s3_error("SignatureDoesNotMatch"),
                                decoder_->error());
    }
    return errors::incomplete_body(decoder_->error());
  }
  return std::nullopt;
}

std::variant<received_payload, s3_error> payload_receiver::finish() {
  if (decoder_ && !decoder_->finish()) {
    return errors::incomplete_body(decoder_->error());
  }
  if (expected_size_ && size_ != *expected_size_) {
    return errors::incomplete_body("You did not provide the number of bytes specified by the "
                                   "Content-Length HTTP header.");
  }
  if (sha256_) {
    const std::string computed = s3::to_hex(sha256_->finish_raw());
    if (computed != *expected_sha256_) {
      return errors::content_sha256_mismatch(*expected_sha256_, computed);
    }
  }
  received_payload payload;
  payload.size = size_;
  payload.md5_raw = md5_->finish_raw();
  if (content_md5_raw_ && *content_md5_raw_ != payload.md5_raw) {
    return errors::bad_digest("The Content-MD5 you specified did not match what we received.")
        .with("ExpectedDigest", s3::to_hex(*content_md5_raw_))
        .with("CalculatedDigest", s3::to_hex(payload.md5_raw));
  }
  if (checksum_) {
    std::string expected;
    if (expected_checksum_) {
      expected = *expected_checksum_;
    } else {
      for (const auto& [name, value] : decoder_->trailers()) {
        if (name == trailer_name_) {
          expected = value;
        }
      }
      if (expected.empty()) {
        return errors::invalid_request("The trailer " + trailer_name_ +
                                       " announced in x-amz-trailer was not sent.");
      }
    }
    const std::string computed = checksum_->base64_digest();
    if (computed != expected) {
      return errors::bad_digest("The " + text::ascii_upper(checksum_->name()) +
                                " you specified did not match the calculated checksum.");
    }
    payload.checksum = checksum_value{std::string(checksum_->name()), computed, "FULL_OBJECT"};
  }
  try {
    payload.data = writer_->commit();
  } catch (const std::exception& error) {
    return errors::internal_error(std::string("storage failure: ") + error.what());
  }
  return payload;
}

} // namespace s3fault::origin
