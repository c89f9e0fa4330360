#pragma once
// XXH3 compiled twice: for the baseline x86-64 instruction set (SSE2) and for AVX2, picked at
// run time. Debian's libxxhash is built for the baseline only: 20 GB/s here against 34 GB/s with
// AVX2 (AVX-512 added only 10 % more), and the hash of every byte a bench reads was a quarter of
// its CPU. Both give the same digests.
#include <cstddef>
#include <cstdint>

namespace s3fault::s3::detail {

/// One build of XXH3 (64 bits). `state` points to an XXH3_state_t.
struct xxh3_kernel {
  std::uint64_t (*hash)(const void* data, std::size_t size);
  void (*reset)(void* state);
  void (*update)(void* state, const void* data, std::size_t size);
  std::uint64_t (*digest)(const void* state);
};

extern const xxh3_kernel xxh3_generic;
extern const xxh3_kernel xxh3_avx2;
/// AVX2 when the CPU has it, else the generic build.
const xxh3_kernel& best_xxh3_kernel();
bool cpu_has_avx2();

} // namespace s3fault::s3::detail
