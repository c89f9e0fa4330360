#include "conformance/gate/object_shapes.hpp"

namespace s3fault::gate {
namespace {

constexpr std::uint64_t kib = 1024;
constexpr std::uint64_t mib = 1024 * kib;

} // namespace

const std::vector<object_shape>& object_shapes() {
  static const std::vector<object_shape> shapes = {
      {"empty", "zero bytes, one PUT", 0, {}},
      {"1KiB", "1 KiB, one PUT", kib, {}},
      {"single-20MiB", "20 MiB, one PUT", 20 * mib, {}},
      {"mp-20MiB-8-8-4", "20 MiB in 8/8/4 MiB parts", 20 * mib, {8 * mib, 8 * mib, 4 * mib}},
      {"mp-16MiB-8-8", "16 MiB in two 8 MiB parts", 16 * mib, {8 * mib, 8 * mib}},
      {"mp-8MiB+1", "8 MiB + 1 byte in two parts (8 MiB, 1 byte)", 8 * mib + 1, {8 * mib, 1}},
  };
  return shapes;
}

} // namespace s3fault::gate
