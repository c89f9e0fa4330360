#pragma once
// The objects a reader is put through: sizes and part layouts that trip readers (empty, tiny,
// large single PUT, uneven and even multipart, a last part of one byte), and a user's own.
#include <cstdint>
#include <string>
#include <vector>

namespace s3fault::gate {

struct object_shape {
  std::string name;        // "mp-20MiB-8-8-4"
  std::string description; // "20 MiB in 8/8/4 MiB parts"
  std::uint64_t size = 0;
  std::vector<std::uint64_t> part_sizes; // empty: uploaded with one PUT
  /// crc32, crc32c, sha1 or sha256: uploaded with that checksum (and without it when the store
  /// refuses checksums); "none": without.
  std::string checksum = "crc32";
  std::string content_type; // empty: none sent (the store's default)
  std::string origin;       // where it is defined: "builtin-matrix.yaml:40"

  bool multipart() const { return !part_sizes.empty(); }
};

} // namespace s3fault::gate
