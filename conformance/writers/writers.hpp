#pragma once
// The built-in writers of `s3fault gate --writer builtin:NAME` (and `s3fault write`): two ways
// real programs upload a file, the careless one and a careful one. Both make one PUT below
// `multipart_threshold` and a multipart upload of `part_size` parts above it; they differ only
// in what they check:
//
//   naive    one attempt per request; CompleteMultipartUpload judged by its status alone, so a
//            200 OK with an <Error> body counts as success: the silent-loss bug, on purpose
//   careful  Content-MD5 on every body, up to `max_attempts` per request (transport failures,
//            500, 503 and an <Error> in a 200 are retried, with backoff), Complete's document
//            must parse and name no error; a failed multipart upload is aborted
//
// Every request (each attempt too) is logged as one line "WRITER: ..." on the stream given.
// Nothing throws: a failed upload is `ok == false` with the reason in `error`.
#include "conformance/client/s3_client.hpp"

#include <chrono>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::writers {

struct write_request {
  client::client_config client;
  std::string bucket;
  std::string key;
  std::string input_path;
  std::uint64_t multipart_threshold = 8 * 1024 * 1024; // from this size on: multipart
  std::uint64_t part_size = 5 * 1024 * 1024;
  unsigned max_attempts = 5; // careful: attempts per request
  std::chrono::milliseconds backoff{100};
};

struct write_result {
  bool ok = false;
  std::string error;
  std::uint64_t bytes = 0; // the input's size
  unsigned requests = 0;
  unsigned retries = 0;
};

using writer_function = write_result (*)(const write_request& request, std::ostream& log);

write_result write_naive(const write_request& request, std::ostream& log);
write_result write_careful(const write_request& request, std::ostream& log);

/// The writer called `name` ("naive", "careful"), or nullptr.
writer_function find_writer(std::string_view name);
const std::vector<std::string_view>& writer_names();
/// One line on how the writer uploads (for --help texts); empty for unknown names.
std::string_view writer_algorithm(std::string_view name);

} // namespace s3fault::writers
