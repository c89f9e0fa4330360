#pragma once
// A file written whole or not at all: a temporary file in the same directory, renamed over the
// target. A reader (a client waiting for a certificate, a tool opening a HAR) sees the old file
// or the whole new one, never half of one.
#include <string>

namespace s3fault::runtime {

/// Writes `text` to `path` with the mode a new file gets (0666 less the umask). On failure
/// nothing is left behind, `path` is as it was, and `error` says why ("cannot write PATH: ...").
bool write_file_atomically(const std::string& path, const std::string& text, std::string& error);

} // namespace s3fault::runtime
