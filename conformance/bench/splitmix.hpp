#pragma once
// SplitMix64 (Steele, Lea and Flood), the bench's one source of seeded numbers: the fixture
// bytes and the operations a mix cell draws. Small, fast and the same on every platform.
#include <cstdint>

namespace s3fault::bench {

/// Advances `state` and returns the next number of its sequence.
inline std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

} // namespace s3fault::bench
