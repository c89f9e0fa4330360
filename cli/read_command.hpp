#pragma once
#include <CLI/App.hpp>

#include <functional>

namespace s3fault::cli {

/// Adds `s3fault read` (one built-in reader fetching one object) to the app; the returned
/// function runs it and gives the exit code.
std::function<int()> add_read_command(CLI::App& app);

} // namespace s3fault::cli
