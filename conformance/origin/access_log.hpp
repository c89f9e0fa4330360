#pragma once
// One log line per request served by the origin, as text or a JSON object. Targets are logged
// with presigned-URL credentials redacted (runtime/log_redaction.hpp); request headers are never
// logged.
#include <cstdint>
#include <string>
#include <string_view>

namespace s3fault::origin {

enum class log_format { text, json };

struct request_record {
  std::string client; // peer address:port
  std::string method;
  std::string target;    // as received; redacted when logged
  std::string operation; // S3 API name
  unsigned status = 0;
  std::string error_code; // S3 error code, when the answer was an error
  std::uint64_t request_bytes = 0;
  std::uint64_t response_bytes = 0;
  double duration_ms = 0;
  std::string request_id;
  std::string outcome = "ok"; // or what went wrong with the connection
};

std::string format_request(const request_record& record, log_format format);

} // namespace s3fault::origin
