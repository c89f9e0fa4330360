#pragma once
// The S3 error codes as the `error` action offers them. The table itself (code, status, message)
// is shared with the origin: s3_errors/s3_error_codes.hpp.
#include <string>

namespace s3fault::faults {

/// "SlowDown, SlowDownRead, ...": every code of the shared table in its order, for the message
/// that refuses an unknown code.
std::string known_s3_error_code_list();

} // namespace s3fault::faults
