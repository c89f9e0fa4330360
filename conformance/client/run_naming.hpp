#pragma once
// Names and stamps the jobs that write to a store (audit, gate, bench) give one run: a random
// suffix for its bucket and key prefix, so runs never collide, and the UTC start time.
#include <string>

namespace s3fault::client {

/// `length` characters of [0-9a-z], from std::random_device (valid in bucket names and keys).
std::string random_name_suffix(std::size_t length = 10);

/// The current UTC time as "2026-11-30T04:52:31Z".
std::string utc_now_iso8601();

} // namespace s3fault::client
