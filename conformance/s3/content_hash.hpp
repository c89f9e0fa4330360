#pragma once
// A fast non-cryptographic hash of content (XXH3, 64 bits, from Debian's libxxhash), for
// checking that bytes read are the bytes written where SHA-256 would cost more than the read:
// `s3fault bench` hashes every body it reads. Not for anything an adversary controls.
#include <cstdint>
#include <memory>
#include <string_view>

namespace s3fault::s3 {

/// The hash of `data` in one call; equal to a content_hasher fed the same bytes in any pieces.
std::uint64_t content_hash(std::string_view data);

/// The same hash over bytes that arrive in pieces.
class content_hasher {
public:
  content_hasher();
  ~content_hasher();
  content_hasher(content_hasher&&) noexcept;
  content_hasher& operator=(content_hasher&&) noexcept;

  void update(std::string_view data);
  std::uint64_t digest() const;

private:
  struct state;
  std::unique_ptr<state> state_;
};

} // namespace s3fault::s3
