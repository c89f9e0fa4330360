#pragma once
// Turns an upload's request body into a verified blob. Every check S3 makes on a payload is
// here, for PutObject and UploadPart alike:
//
//   body bytes ──[aws-chunked decoder: framing, chunk + trailer signatures]──> payload
//   payload ──> MD5 (ETag, Content-MD5) ──> SHA-256 (x-amz-content-sha256, when a hash)
//           ──> flexible checksum (x-amz-checksum-* header or trailer) ──> blob writer
//   end of body: decoded length, hashes, checksum compared; the blob committed only then.
//
// The blob is written as bytes arrive (bounded memory) and thrown away unless every check
// passes, so a failed upload leaves nothing behind.
#include "conformance/origin/aws_chunked_decoder.hpp"
#include "conformance/origin/http_message.hpp"
#include "conformance/origin/object_store.hpp"
#include "conformance/s3/hashing.hpp"

#include <memory>
#include <optional>
#include <variant>

namespace s3fault::origin {

/// A payload that passed every check, committed to storage.
struct received_payload {
  std::shared_ptr<const blob> data;
  std::uint64_t size = 0;
  std::string md5_raw;
  std::optional<checksum_value> checksum; // FULL_OBJECT (of this body)
};

/// The flexible-checksum algorithm a request names (x-amz-checksum-<algo> header, x-amz-trailer
/// or x-amz-sdk-checksum-algorithm), lower case; empty when none. InvalidRequest when it names
/// one the origin cannot compute.
std::variant<std::string, s3_error> requested_checksum_algorithm(const request_head& head);

/// The same checks for a small body held whole (the XML of CompleteMultipartUpload,
/// DeleteObjects, CreateBucket): x-amz-content-sha256, Content-MD5 and, when
/// `check_checksums`, the x-amz-checksum-* header.
std::optional<s3_error> check_small_body(const request_head& head, std::string_view body,
                                         bool check_checksums = true);

class payload_receiver {
public:
  /// Checks the headers before any body byte is read: x-amz-content-sha256, Content-MD5,
  /// x-amz-checksum-*, x-amz-trailer, the lengths. `max_size` bounds the payload
  /// (EntityTooLarge).
  static std::variant<std::unique_ptr<payload_receiver>, s3_error>
  start(const request_head& head, const std::optional<s3::signing_context>& signing,
        object_store& store, std::uint64_t max_size);

  std::optional<s3_error> consume(std::string_view bytes);
  /// The body ended: verifies it and commits the blob.
  std::variant<received_payload, s3_error> finish();

private:
  payload_receiver() = default;
  std::optional<s3_error> take_payload(std::string_view payload);

  std::optional<aws_chunked_decoder> decoder_;
  std::string decoded_; // scratch for the decoder's output
  std::optional<std::uint64_t> expected_size_;
  std::uint64_t max_size_ = 0;
  std::uint64_t size_ = 0;
  std::optional<std::string> content_md5_raw_;
  std::optional<std::string> expected_sha256_; // lower-case hex
  std::unique_ptr<s3::digest_stream> md5_;
  std::unique_ptr<s3::digest_stream> sha256_;
  std::unique_ptr<s3::checksum> checksum_;
  std::optional<std::string> expected_checksum_; // from the header; trailer read at the end
  std::string trailer_name_;                     // x-amz-checksum-<algo> expected in trailer
  std::unique_ptr<blob_writer> writer_;
};

} // namespace s3fault::origin
