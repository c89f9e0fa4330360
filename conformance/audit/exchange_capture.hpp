#pragma once
// Turns a client response into the exchange record the reports show: the status, the headers a
// GetObject reader depends on, the body's length and hash, the S3 error code, any failure.
#include "conformance/audit/audit_types.hpp"
#include "conformance/client/http_types.hpp"

#include <string>

namespace s3fault::audit {

exchange_record capture_exchange(const client::response& response, std::string request);

} // namespace s3fault::audit
