#include "conformance/s3/hashing.hpp"

#include "conformance/s3/crc32c.hpp"
#include "text/text.hpp"

#include <openssl/evp.h>
#include <zlib.h>

#include <array>
#include <stdexcept>

namespace s3fault::s3 {
namespace {

/// OpenSSL only fails here on allocation failure or a broken build: nothing a caller can handle.
void require(bool ok, const char* what) {
  if (!ok) {
    throw std::runtime_error(std::string("OpenSSL failed: ") + what);
  }
}

struct md_ctx_deleter {
  void operator()(EVP_MD_CTX* ctx) const { EVP_MD_CTX_free(ctx); }
};
using md_ctx_ptr = std::unique_ptr<EVP_MD_CTX, md_ctx_deleter>;

/// An algorithm fetched once for the life of the process. OpenSSL 3 looks up EVP_sha256() and
/// the name given to EVP_Q_mac in its provider store, under a lock, on every call; a bench
/// worker signs tens of thousands of requests a second and that lookup was most of the signing.
const EVP_MD* fetched(const char* name) {
  const EVP_MD* md = EVP_MD_fetch(nullptr, name, nullptr);
  require(md != nullptr, name);
  return md;
}
const EVP_MD* sha256_md() {
  static const EVP_MD* const md = fetched("SHA256");
  return md;
}
const EVP_MD* sha1_md() {
  static const EVP_MD* const md = fetched("SHA1");
  return md;
}
const EVP_MD* md5_md() {
  static const EVP_MD* const md = fetched("MD5");
  return md;
}

/// One digest context per thread, initialised again for each one-shot digest.
EVP_MD_CTX* thread_context() {
  thread_local md_ctx_ptr ctx(EVP_MD_CTX_new());
  require(ctx != nullptr, "EVP_MD_CTX_new");
  return ctx.get();
}

/// The digest of the pieces, one after the other.
std::string digest_raw(const EVP_MD* md, std::initializer_list<std::string_view> pieces) {
  EVP_MD_CTX* ctx = thread_context();
  require(EVP_DigestInit_ex(ctx, md, nullptr) == 1, "EVP_DigestInit_ex");
  for (const auto piece : pieces) {
    require(EVP_DigestUpdate(ctx, piece.data(), piece.size()) == 1, "EVP_DigestUpdate");
  }
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int size = 0;
  require(EVP_DigestFinal_ex(ctx, out.data(), &size) == 1, "EVP_DigestFinal_ex");
  return std::string(reinterpret_cast<const char*>(out.data()), size);
}

md_ctx_ptr new_digest_context(const EVP_MD* md) {
  md_ctx_ptr ctx(EVP_MD_CTX_new());
  require(ctx != nullptr, "EVP_MD_CTX_new");
  require(EVP_DigestInit_ex(ctx.get(), md, nullptr) == 1, "EVP_DigestInit_ex");
  return ctx;
}

std::string big_endian_bytes(std::uint32_t value) {
  return {static_cast<char>((value >> 24) & 0xFF), static_cast<char>((value >> 16) & 0xFF),
          static_cast<char>((value >> 8) & 0xFF), static_cast<char>(value & 0xFF)};
}

/// x-amz-checksum-crc32: zlib's CRC-32 (ISO-HDLC), big-endian, base64.
class crc32_checksum final : public checksum {
public:
  void update(std::string_view data) override {
    crc_ = crc32_z(crc_, reinterpret_cast<const Bytef*>(data.data()), data.size());
  }
  std::string base64_digest() const override {
    return base64_encode(big_endian_bytes(static_cast<std::uint32_t>(crc_)));
  }
  std::string_view name() const override { return "crc32"; }

private:
  uLong crc_ = crc32_z(0, nullptr, 0);
};

/// x-amz-checksum-crc32c: Castagnoli CRC, big-endian, base64.
class crc32c_checksum final : public checksum {
public:
  void update(std::string_view data) override { crc_ = crc32c_update(crc_, data); }
  std::string base64_digest() const override { return base64_encode(big_endian_bytes(crc_)); }
  std::string_view name() const override { return "crc32c"; }

private:
  std::uint32_t crc_ = 0;
};

/// x-amz-checksum-sha1 / -sha256: the raw digest, base64. The context is copied to read the
/// digest so that `base64_digest` can be asked mid-stream.
class evp_checksum final : public checksum {
public:
  evp_checksum(const EVP_MD* md, std::string_view name)
      : ctx_(new_digest_context(md)), name_(name) {}
  void update(std::string_view data) override {
    require(EVP_DigestUpdate(ctx_.get(), data.data(), data.size()) == 1, "EVP_DigestUpdate");
  }
  std::string base64_digest() const override {
    md_ctx_ptr copy(EVP_MD_CTX_new());
    require(copy != nullptr, "EVP_MD_CTX_new");
    require(EVP_MD_CTX_copy_ex(copy.get(), ctx_.get()) == 1, "EVP_MD_CTX_copy_ex");
    std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
    unsigned int size = 0;
    require(EVP_DigestFinal_ex(copy.get(), out.data(), &size) == 1, "EVP_DigestFinal_ex");
    return base64_encode(std::string_view(reinterpret_cast<const char*>(out.data()), size));
  }
  std::string_view name() const override { return name_; }

private:
  md_ctx_ptr ctx_;
  std::string_view name_;
};

bool is_base64_alphabet(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
         c == '/';
}

} // namespace

std::string sha256_raw(std::string_view data) {
  return digest_raw(sha256_md(), {data});
}
std::string sha256_hex(std::string_view data) {
  return to_hex(sha256_raw(data));
}
std::string md5_raw(std::string_view data) {
  return digest_raw(md5_md(), {data});
}
std::string md5_hex(std::string_view data) {
  return to_hex(md5_raw(data));
}

/// HMAC-SHA256 as RFC 2104 defines it: H((K ^ opad) || H((K ^ ipad) || data)), with a key
/// longer than the 64-byte block hashed first.
std::string hmac_sha256_raw(std::string_view key, std::string_view data) {
  constexpr std::size_t block = 64;
  std::string hashed_key;
  if (key.size() > block) {
    hashed_key = sha256_raw(key);
    key = hashed_key;
  }
  std::string inner_pad(block, '\x36');
  std::string outer_pad(block, '\x5c');
  for (std::size_t i = 0; i < key.size(); ++i) {
    inner_pad[i] = static_cast<char>(inner_pad[i] ^ key[i]);
    outer_pad[i] = static_cast<char>(outer_pad[i] ^ key[i]);
  }
  const auto inner = digest_raw(sha256_md(), {inner_pad, data});
  return digest_raw(sha256_md(), {outer_pad, inner});
}

std::string to_hex(std::string_view raw) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(raw.size() * 2);
  for (const char c : raw) {
    const auto byte = static_cast<unsigned char>(c);
    hex.push_back(digits[byte >> 4]);
    hex.push_back(digits[byte & 0x0F]);
  }
  return hex;
}

std::string base64_encode(std::string_view raw) {
  std::string text(4 * ((raw.size() + 2) / 3), '\0');
  const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data()),
                                      reinterpret_cast<const unsigned char*>(raw.data()),
                                      static_cast<int>(raw.size()));
  require(written >= 0 && static_cast<std::size_t>(written) == text.size(), "EVP_EncodeBlock");
  return text;
}

std::optional<std::string> base64_decode(std::string_view text) {
  // EVP_DecodeBlock skips surrounding whitespace and does not check padding, so the strict
  // shape (what S3 accepts in Content-MD5 and x-amz-checksum-*) is checked here first.
  if (text.size() % 4 != 0) {
    return std::nullopt;
  }
  std::size_t padding = 0;
  if (!text.empty() && text.back() == '=') {
    padding = text.size() >= 2 && text[text.size() - 2] == '=' ? 2 : 1;
  }
  for (std::size_t i = 0; i < text.size() - padding; ++i) {
    if (!is_base64_alphabet(text[i])) {
      return std::nullopt;
    }
  }
  if (text.empty()) {
    return std::string();
  }
  std::string raw(text.size() / 4 * 3, '\0');
  const int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(raw.data()),
                                      reinterpret_cast<const unsigned char*>(text.data()),
                                      static_cast<int>(text.size()));
  if (written < 0 || static_cast<std::size_t>(written) != raw.size()) {
    return std::nullopt;
  }
  raw.resize(raw.size() - padding);
  return raw;
}

std::unique_ptr<checksum> checksum::create(std::string_view algorithm) {
  if (text::iequal(algorithm, "crc32")) {
    return std::make_unique<crc32_checksum>();
  }
  if (text::iequal(algorithm, "crc32c")) {
    return std::make_unique<crc32c_checksum>();
  }
  if (text::iequal(algorithm, "sha1")) {
    return std::make_unique<evp_checksum>(sha1_md(), "sha1");
  }
  if (text::iequal(algorithm, "sha256")) {
    return std::make_unique<evp_checksum>(sha256_md(), "sha256");
  }
  return nullptr;
}

struct digest_stream::impl {
  md_ctx_ptr ctx;
};

digest_stream::digest_stream(kind k)
    : impl_(std::make_unique<impl>(
          impl{new_digest_context(k == kind::md5 ? md5_md() : sha256_md())})) {}

digest_stream::~digest_stream() = default;

void digest_stream::update(std::string_view data) {
  require(EVP_DigestUpdate(impl_->ctx.get(), data.data(), data.size()) == 1, "EVP_DigestUpdate");
}

std::string digest_stream::finish_raw() {
  std::array<unsigned char, EVP_MAX_MD_SIZE> out{};
  unsigned int size = 0;
  require(EVP_DigestFinal_ex(impl_->ctx.get(), out.data(), &size) == 1, "EVP_DigestFinal_ex");
  return std::string(reinterpret_cast<const char*>(out.data()), size);
}

} // namespace s3fault::s3
