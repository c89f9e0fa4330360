#pragma once
#include <CLI/App.hpp>

#include <functional>

namespace s3fault::cli {

/// Adds `s3fault profile list|show NAME` (the shipped store profiles) to the app; the returned
/// function runs it and gives the exit code.
std::function<int()> add_profile_command(CLI::App& app);

} // namespace s3fault::cli
