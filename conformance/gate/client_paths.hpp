#pragma once
// The files a reader's or writer's command names, made absolute for its repro: the gate runs the
// command in its own working directory, a repro.sh runs from wherever it is started.
#include <filesystem>
#include <string>

namespace s3fault::gate {

/// `command` with each word that is a relative path to something that exists from `dir` made
/// absolute (shell-quoted): `examples/readers/aws-cli.sh`, `./reader.py`, `python3 reader.py`,
/// `--config=conf/a.yaml`. Words with quotes inside, variables, globs or placeholders are left
/// as they are, and so is a word without a '/' that is not a regular file or that bash looks up
/// in PATH (the first word of a command: `aws` stays `aws` even when ./aws exists).
std::string with_absolute_paths(const std::string& command, const std::filesystem::path& dir);

/// `path` (or `path:LINE`, as a scenario's origin is given) made absolute from `dir` when that
/// file exists; else as it is ("builtin-matrix.yaml:12").
std::string absolute_origin(const std::string& origin, const std::filesystem::path& dir);

} // namespace s3fault::gate
