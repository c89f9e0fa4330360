#pragma once
#include <CLI/App.hpp>

#include <functional>

namespace s3fault::cli {

/// Adds `s3fault report FILE [--html OUT] [--csv OUT] [--alpha A] [--min-change PCT]
/// [--against OTHER]` to the app: reads the timeline a run saved (the proxy's --report, the
/// bench's --json, both with --timeline), judges its drift again, prints it, and writes the
/// timeline page and CSV. The returned function runs it and gives the exit code: 0 when
/// everything was read and written (drift is a finding, not a failure), 2 for a file that
/// cannot be read or holds no timeline, 1 when an output file cannot be written.
std::function<int()> add_report_command(CLI::App& app);

} // namespace s3fault::cli
