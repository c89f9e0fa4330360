// The digests' throughput: XXH3 (the bench's content check) and CRC-32C (the origin's and the
// client's x-amz-checksum-crc32c), best of 5 passes, two ways: a 64 KiB piece in the cache
// hashed 4096 times (a body just read from a socket, as the bench and the origin see it) and
// 256 MiB from memory in 1 MiB pieces. A figure to print, not a test:
// `build/s3fault_digest_throughput` (docs/performance.md).
#include "conformance/s3/content_hash.hpp"
#include "conformance/s3/crc32c.hpp"
#include "conformance/s3/hashing.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <string_view>

namespace {

constexpr std::size_t total_bytes = 256u << 20;
constexpr std::size_t piece_bytes = 1u << 20;
constexpr std::size_t cached_bytes = 64u << 10;
constexpr int cached_repeats = 4096;

std::string random_bytes() {
  std::string bytes(total_bytes, '\0');
  std::mt19937_64 generator(42);
  for (std::size_t at = 0; at + 8 <= bytes.size(); at += 8) {
    const std::uint64_t word = generator();
    bytes.replace(at, 8, reinterpret_cast<const char*>(&word), 8);
  }
  return bytes;
}

/// Calls `update` with each piece: 1 MiB pieces of `bytes`, or, for the 64 KiB of `bytes` in
/// the cache, the same piece `cached_repeats` times.
template <typename Update> void in_pieces(std::string_view bytes, Update update) {
  if (bytes.size() == cached_bytes) {
    for (int repeat = 0; repeat < cached_repeats; ++repeat) {
      update(bytes);
    }
    return;
  }
  for (std::size_t at = 0; at < bytes.size(); at += piece_bytes) {
    update(bytes.substr(at, piece_bytes));
  }
}

/// GB/s of the best of five passes of `digest` over `bytes`, in the cache and from memory;
/// `digest` returns a value that is printed, so that no pass can be left out.
void report(const char* name, std::string_view bytes,
            const std::function<std::uint64_t(std::string_view)>& digest) {
  std::printf("%-28s", name);
  for (const auto whole : {bytes.substr(0, cached_bytes), bytes}) {
    const double hashed = whole.size() == cached_bytes
                              ? static_cast<double>(cached_bytes) * cached_repeats
                              : static_cast<double>(whole.size());
    double best_seconds = 1e9;
    std::uint64_t value = 0;
    for (int pass = 0; pass < 5; ++pass) {
      const auto start = std::chrono::steady_clock::now();
      value = digest(whole);
      const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
      best_seconds = std::min(best_seconds, took.count());
    }
    std::printf("  %s %6.2f GB/s (%016llx)", whole.size() == cached_bytes ? "cache" : "memory",
                hashed / best_seconds / 1e9, static_cast<unsigned long long>(value));
  }
  std::printf("\n");
}

} // namespace

int main() {
  using namespace s3fault::s3;
  const std::string bytes = random_bytes();
  report("xxh3 (content_hasher)", bytes, [](std::string_view all) {
    content_hasher hasher;
    in_pieces(all, [&](std::string_view piece) { hasher.update(piece); });
    return hasher.digest();
  });
  report("crc32c (crc32c_update)", bytes, [](std::string_view all) {
    std::uint32_t crc = 0;
    in_pieces(all, [&](std::string_view piece) { crc = crc32c_update(crc, piece); });
    return std::uint64_t{crc};
  });
  report("crc32 (x-amz-checksum-crc32)", bytes, [](std::string_view all) {
    auto crc = checksum::create("crc32");
    in_pieces(all, [&](std::string_view piece) { crc->update(piece); });
    return std::hash<std::string>{}(crc->base64_digest());
  });
  return 0;
}
