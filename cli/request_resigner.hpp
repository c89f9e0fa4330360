#pragma once
// The proxy's re-signing (proxy --resign-access-key): SigV4 from conformance/s3 given to the
// proxy as a proxy::request_resigner, so that proxy/ itself never uses conformance/.
#include "conformance/s3/sigv4.hpp"
#include "proxy/request_edits.hpp"

#include <string>

namespace s3fault::cli {

/// Signs edited requests with `keys`. The region is the one the client signed for (its
/// credential scope), else `default_region`. The payload hash is the client's
/// x-amz-content-sha256 (UNSIGNED-PAYLOAD without one), so the body is never read; a body whose
/// aws-chunked chunks carry signatures chained to the client's cannot be signed again.
proxy::request_resigner make_request_resigner(s3::credentials keys, std::string default_region);

} // namespace s3fault::cli
