#pragma once
// The built-in readers of `s3fault gate` (and `s3fault read`): three ways real programs fetch a
// large object, from the buggy one to the careful ones. Each writes the object to a file and
// says whether it trusts what it wrote.
//
//   naive-parts   GET partNumber=1, N from x-amz-mp-parts-count (missing: 1), parts 2..N
//                 appended; no length checks: the silent-truncation bug, on purpose
//   robust-parts  parts as above, the total from Content-Range, whatever the parts did not
//                 cover by byte range, If-Match, retries, every offset and the final length
//                 checked; x-amz-checksum-mode: ENABLED, each body checked against the plain
//                 x-amz-checksum-* it comes with (a mismatch retried), a one-PUT object's
//                 bytes against its MD5 ETag
//   ranged        HEAD for the size and ETag, then parallel ranged GETs with If-Match, each
//                 checked and written at its offset; a one-PUT object's bytes checked against
//                 its MD5 ETag (ranges carry no checksum: a multipart object's bytes are not
//                 checked at all)
//
// Every request (each attempt of a retried one too) is logged as one line "READER: ..." on the
// stream given. Nothing throws: a failed read is `ok == false` with the reason in `error`; the
// output file then holds whatever was written before the failure.
#include "conformance/client/s3_client.hpp"

#include <chrono>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::readers {

struct read_request {
  client::client_config client; // endpoint, credentials, region, timeouts
  std::string bucket;
  std::string key;
  std::string output_path;                  // the object is written here (created or truncated)
  unsigned concurrency = 4;                 // ranged: parallel ranged GETs
  std::size_t range_size = 8 * 1024 * 1024; // ranged: bytes per ranged GET
  unsigned max_attempts = 5;                // robust-parts, ranged: attempts per request
  std::chrono::milliseconds backoff{100};   // first backoff, doubling, with jitter
};

struct read_result {
  bool ok = false;
  std::string error;               // why the read failed (empty when ok)
  std::uint64_t bytes_written = 0; // object bytes in the output file
  unsigned requests = 0;           // HTTP requests sent, retries included
  unsigned retries = 0;            // attempts after the first of a request
};

using reader_function = read_result (*)(const read_request& request, std::ostream& log);

/// The silent-truncation bug: trusts x-amz-mp-parts-count (missing means one part) and checks
/// no length. Fails only on a non-2xx status or a transport failure.
read_result read_naive_parts(const read_request& request, std::ostream& log);
/// Part-wise, but trusts only Content-Range: fetches what the parts did not cover by byte
/// range, retries transient failures (a body that does not match its checksum included), and
/// fails loudly on a changed object, a short total, damaged bytes or an MD5 ETag not met.
read_result read_robust_parts(const read_request& request, std::ostream& log);
/// Range-wise: HEAD for the size, then `concurrency` threads of ranged GETs of `range_size`;
/// fails when a one-PUT object's bytes do not have the MD5 of its ETag.
read_result read_ranged(const read_request& request, std::ostream& log);

/// The reader called `name` ("naive-parts", "robust-parts", "ranged"), or nullptr.
reader_function find_reader(std::string_view name);
/// Every reader's name, in a stable order.
const std::vector<std::string_view>& reader_names();
/// Two lines on how the reader fetches an object (for --help texts); empty for unknown names.
std::string_view reader_algorithm(std::string_view name);

} // namespace s3fault::readers
