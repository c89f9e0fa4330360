// XXH3 for the baseline instruction set (see xxh3_kernels.hpp).
#define S3FAULT_XXH3_KERNEL xxh3_generic
#include "conformance/s3/xxh3_kernel.inc"

namespace s3fault::s3::detail {

bool cpu_has_avx2() {
  return __builtin_cpu_supports("avx2");
}

const xxh3_kernel& best_xxh3_kernel() {
  static const xxh3_kernel& best = cpu_has_avx2() ? xxh3_avx2 : xxh3_generic;
  return best;
}

} // namespace s3fault::s3::detail
