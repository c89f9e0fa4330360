#include "faults/s3_error_codes.hpp"

#include "s3_errors/s3_error_codes.hpp"

namespace s3fault::faults {

std::string known_s3_error_code_list() {
  std::string out;
  for (const auto& entry : s3_errors::s3_error_codes()) {
    if (!out.empty()) {
      out += ", ";
    }
    out += entry.code;
  }
  return out;
}

} // namespace s3fault::faults
