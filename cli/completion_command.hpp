#pragma once
#include <CLI/App.hpp>

#include <functional>

namespace s3fault::cli {

/// Adds `s3fault completion bash` (prints the bash completion script) and the hidden
/// `s3fault manpages DIR` (writes a man page per command; the build runs it) to the app. Both
/// are made from `app` as it is when they run, so add them after every other command.
std::function<int()> add_completion_command(CLI::App& app);

} // namespace s3fault::cli
