#pragma once
// The objects a reader is put through: sizes and part layouts that trip readers (empty, tiny,
// large single PUT, uneven and even multipart, a last part of one byte).
#include <cstdint>
#include <string>
#include <vector>

namespace s3fault::gate {

struct object_shape {
  std::string name;  // "mp-20MiB-8-8-4"
  std::string title; // "20 MiB in 8/8/4 MiB parts"
  std::uint64_t size = 0;
  std::vector<std::uint64_t> part_sizes; // empty: uploaded with one PUT

  bool multipart() const { return !part_sizes.empty(); }
};

/// Every shape, in report order.
const std::vector<object_shape>& object_shapes();

} // namespace s3fault::gate
