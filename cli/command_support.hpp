#pragma once
// Small pieces the job subcommands (audit, gate, read, demo) share: defaults from the
// environment, comma-separated glob options, when to colour, and writing a report file.
#include <string>
#include <vector>

namespace s3fault::cli {

/// The environment variable's value, or `fallback` when it is unset or empty.
std::string env_or(const char* name, std::string fallback);

/// `--x 'a,b' --x c` as {a, b, c}; {"*"} when nothing was given.
std::vector<std::string> split_globs(const std::vector<std::string>& arguments);

/// `--color auto|always|never`: auto colours a terminal unless NO_COLOR is set.
bool use_colour(const std::string& choice);

/// Writes a report file; on failure prints "s3fault COMMAND: cannot write PATH" and returns
/// false.
bool write_report_file(const std::string& command, const std::string& path,
                       const std::string& text);

} // namespace s3fault::cli
