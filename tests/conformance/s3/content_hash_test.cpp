// The content hash bench checks every read with: the same in one call and in any pieces, and
// different when one bit of the content is.
#include "conformance/s3/content_hash.hpp"

#include <gtest/gtest.h>

#include <xxhash.h>

#include <string>

namespace s3fault::s3 {
namespace {

std::string seeded_bytes(std::size_t n) {
  std::string bytes(n, '\0');
  std::uint32_t x = 2463534242u;
  for (auto& c : bytes) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    c = static_cast<char>(x);
  }
  return bytes;
}

TEST(ContentHash, PiecesHashAsTheWhole) {
  const std::string data = seeded_bytes(1 << 20);
  for (const std::size_t piece : {1u, 7u, 4096u, 65536u, 1u << 20}) {
    content_hasher hasher;
    for (std::size_t at = 0; at < data.size(); at += piece) {
      hasher.update(std::string_view(data).substr(at, piece));
    }
    EXPECT_EQ(hasher.digest(), content_hash(data)) << "pieces of " << piece;
  }
  EXPECT_EQ(content_hasher().digest(), content_hash(""));
}

TEST(ContentHash, OneFlippedBitChangesIt) {
  const std::string data = seeded_bytes(64 * 1024);
  for (const std::size_t at : {0u, 1000u, 64u * 1024 - 1}) {
    std::string flipped = data;
    flipped[at] = static_cast<char>(flipped[at] ^ 0x01);
    EXPECT_NE(content_hash(flipped), content_hash(data)) << "byte " << at;
  }
  EXPECT_NE(content_hash(data.substr(1)), content_hash(data));
}

TEST(ContentHash, IsXxh3OfTheBytes) {
  // XXH3_64bits of the empty input, as published with xxHash.
  EXPECT_EQ(content_hash(""), 0x2D06800538D394C2ull);
}

TEST(ContentHash, TheDispatchedBuildGivesTheBaselineBuildsDigests) {
  // content_hash goes through libxxhash's run-time dispatch (AVX2 where the CPU has it);
  // XXH3_64bits is the library's baseline (SSE2) build.
  const std::string data = seeded_bytes(300 * 1024 + 17);
  // Sizes across XXH3's code paths: short inputs, the mid sizes, one stripe block and several.
  for (const std::size_t size :
       {0u, 1u, 3u, 16u, 17u, 128u, 129u, 240u, 241u, 1024u, 1025u, 65536u, 300u * 1024 + 17}) {
    const auto piece = std::string_view(data).substr(0, size);
    EXPECT_EQ(content_hash(piece), XXH3_64bits(piece.data(), piece.size())) << size << " bytes";
  }
  // Streamed in pieces that do not line up with XXH3's blocks.
  content_hasher hasher;
  for (std::size_t offset = 0; offset < data.size(); offset += 65536 - 7) {
    hasher.update(std::string_view(data).substr(offset, 65536 - 7));
  }
  EXPECT_EQ(hasher.digest(), XXH3_64bits(data.data(), data.size())) << "streamed";
}

} // namespace
} // namespace s3fault::s3
