#include "conformance/origin/crc_combine.hpp"

#include <array>

namespace s3fault::origin {
namespace {

using matrix = std::array<std::uint32_t, 32>;

std::uint32_t times(const matrix& m, std::uint32_t vector) {
  std::uint32_t sum = 0;
  for (std::size_t i = 0; vector != 0; ++i, vector >>= 1) {
    if (vector & 1u) {
      sum ^= m[i];
    }
  }
  return sum;
}

matrix square(const matrix& m) {
  matrix out{};
  for (std::size_t i = 0; i < 32; ++i) {
    out[i] = times(m, m[i]);
  }
  return out;
}

} // namespace

std::uint32_t crc_combine(std::uint32_t polynomial, std::uint32_t crc_a, std::uint32_t crc_b,
                          std::uint64_t length_b) {
  if (length_b == 0) {
    return crc_a;
  }
  // `odd` shifts one zero bit into the register; squaring doubles the number of zero bits.
  matrix odd{};
  odd[0] = polynomial;
  for (std::size_t i = 1; i < 32; ++i) {
    odd[i] = 1u << (i - 1);
  }
  matrix even = square(odd); // two zero bits
  odd = square(even);        // four zero bits
  // Apply length_b zero bytes (8 bits each) to crc_a, one bit of the length at a time.
  do {
    even = square(odd);
    if (length_b & 1u) {
      crc_a = times(even, crc_a);
    }
    length_b >>= 1;
    if (length_b == 0) {
      break;
    }
    odd = square(even);
    if (length_b & 1u) {
      crc_a = times(odd, crc_a);
    }
    length_b >>= 1;
  } while (length_b != 0);
  return crc_a ^ crc_b;
}

} // namespace s3fault::origin
