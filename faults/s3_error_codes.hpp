#pragma once
// The S3 error codes s3fault knows by name, with the HTTP status and message a store sends for
// each (AWS's ErrorResponses reference; SlowDownRead/SlowDownWrite are MinIO's), so that
// `error SlowDown` answers exactly as S3 would.
#include <span>
#include <string_view>

namespace s3fault::faults {

struct s3_error_code {
  std::string_view code;    // "SlowDown"
  unsigned status;          // 503
  std::string_view message; // "Please reduce your request rate."
};

/// Every known code, in a stable order (for help texts and error messages).
std::span<const s3_error_code> s3_error_codes();
/// nullptr for a code not in the table (codes are case-sensitive, as in S3).
const s3_error_code* find_s3_error_code(std::string_view code);

} // namespace s3fault::faults
