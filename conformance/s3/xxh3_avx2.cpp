// XXH3 for AVX2 (compiled with -mavx2; called only where the CPU has it: xxh3_kernels.hpp).
#define S3FAULT_XXH3_KERNEL xxh3_avx2
#include "conformance/s3/xxh3_kernel.inc"
