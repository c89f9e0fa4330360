// The readers by name, for `s3fault read NAME` and the gate's reader list.
#include "conformance/readers/readers.hpp"

#include <array>

namespace s3fault::readers {
namespace {

struct reader_entry {
  std::string_view name;
  reader_function read;
  std::string_view algorithm;
};

constexpr std::array<reader_entry, 3> catalog{{
    {"naive-parts", &read_naive_parts,
     "GET partNumber=1, N from x-amz-mp-parts-count (missing means 1), then parts 2..N appended.\n"
     "No length checks, no retries: returns part 1 alone when a store omits the parts count."},
    {"robust-parts", &read_robust_parts,
     "Parts as naive-parts, the total from Content-Range, what the parts missed read by range;\n"
     "If-Match, retries, offsets, final length, x-amz-checksum-* and an MD5 ETag checked."},
    {"ranged", &read_ranged,
     "HEAD for size and ETag, parallel ranged GETs (--concurrency) with If-Match, each checked\n"
     "(206, Content-Range, length) and placed; retries; an MD5 ETag checked (no checksums)."},
}};

} // namespace

reader_function find_reader(std::string_view name) {
  for (const auto& entry : catalog) {
    if (entry.name == name) {
      return entry.read;
    }
  }
  return nullptr;
}

const std::vector<std::string_view>& reader_names() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const auto& entry : catalog) {
      all.push_back(entry.name);
    }
    return all;
  }();
  return names;
}

std::string_view reader_algorithm(std::string_view name) {
  for (const auto& entry : catalog) {
    if (entry.name == name) {
      return entry.algorithm;
    }
  }
  return {};
}

} // namespace s3fault::readers
