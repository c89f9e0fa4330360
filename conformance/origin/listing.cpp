#include "conformance/origin/listing.hpp"

namespace s3fault::origin {

std::string prefix_successor(std::string prefix) {
  while (!prefix.empty()) {
    auto& last = reinterpret_cast<unsigned char&>(prefix.back());
    if (last != 0xFF) {
      ++last;
      return prefix;
    }
    prefix.pop_back();
  }
  return prefix;
}

} // namespace s3fault::origin
