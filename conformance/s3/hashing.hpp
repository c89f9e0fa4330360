#pragma once
// Digests and checksums S3 uses (OpenSSL for the cryptographic ones), with incremental forms
// for streaming bodies.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace s3fault::s3 {

std::string sha256_raw(std::string_view data);
std::string sha256_hex(std::string_view data);
std::string md5_raw(std::string_view data);
std::string md5_hex(std::string_view data);
std::string hmac_sha256_raw(std::string_view key, std::string_view data);
std::string to_hex(std::string_view raw); // lower case
std::string base64_encode(std::string_view raw);
std::optional<std::string> base64_decode(std::string_view text); // nullopt when malformed

/// The flexible checksums of S3 (x-amz-checksum-<name>): crc32, crc32c, sha1, sha256.
/// `update` as bytes stream past; `base64_digest` gives the header value.
class checksum {
public:
  /// nullptr for an unknown algorithm name (case-insensitive: "CRC32", "crc32c", ...).
  static std::unique_ptr<checksum> create(std::string_view algorithm);
  virtual ~checksum() = default;
  virtual void update(std::string_view data) = 0;
  virtual std::string base64_digest() const = 0;
  virtual std::string_view name() const = 0; // lower case, e.g. "crc32c"
};

/// Incremental MD5 and SHA-256 (object ETags and payload hashes of streamed bodies).
class digest_stream {
public:
  enum class kind { md5, sha256 };
  explicit digest_stream(kind k);
  ~digest_stream();
  digest_stream(const digest_stream&) = delete;
  digest_stream& operator=(const digest_stream&) = delete;
  void update(std::string_view data);
  std::string finish_raw(); // call once

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace s3fault::s3
