#pragma once
#include <CLI/App.hpp>

#include <functional>

namespace s3fault::cli {

/// Adds `s3fault journal summary|to-har FILE...` (reports from the proxy's traffic journal,
/// docs/journal.md) to the app; the returned function runs it and gives the exit code.
std::function<int()> add_journal_command(CLI::App& app);

} // namespace s3fault::cli
