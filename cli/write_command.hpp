#pragma once
#include <CLI/App.hpp>

#include <functional>

namespace s3fault::cli {

/// Adds `s3fault write` (one built-in writer uploading one file) to the app; the returned
/// function runs it and gives the exit code.
std::function<int()> add_write_command(CLI::App& app);

} // namespace s3fault::cli
