#pragma once
// What a writer run left in the store, read straight from the store (never through the proxy
// that made the faults): the object under the key, and the multipart uploads left open on it.
#include "conformance/client/s3_client.hpp"

#include <optional>
#include <string>

namespace s3fault::gate {

/// The key's bytes; nullopt when the store holds no object under it (404). Up to twice
/// `input_size` (at least the client's usual cap) is read; a bigger object, or any other answer,
/// throws std::runtime_error: then the gate cannot judge the run.
std::optional<std::string> read_stored_object(client::s3_client& store, const std::string& bucket,
                                              const std::string& key, std::uint64_t input_size);

struct open_uploads {
  std::optional<std::size_t> count; // nullopt: the store cannot list them
  std::string problem;              // why not, e.g. "ListMultipartUploads: 501 NotImplemented"
};

/// Counts the multipart uploads open on exactly `key` and aborts each, so the next run (and the
/// bucket's deletion) starts clean.
open_uploads abort_open_uploads(client::s3_client& store, const std::string& bucket,
                                const std::string& key);

} // namespace s3fault::gate
