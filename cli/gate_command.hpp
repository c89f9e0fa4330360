#pragma once
#include "conformance/gate/run_verdict.hpp"

#include <CLI/App.hpp>

#include <functional>
#include <optional>
#include <string>

namespace s3fault::cli {

/// The command the gate runs for a reader or writer as given: `builtin:NAME` runs this binary's
/// `s3fault read NAME` (a writer's: `s3fault write NAME`); anything else is the command itself.
/// Nullopt with the reason in `error` for a built-in name that is not one.
std::optional<std::string> gate_client_command(gate::run_role role, const std::string& given,
                                               std::string& error);

/// Adds `s3fault gate` to the app; the returned function runs it and gives the exit code.
std::function<int()> add_gate_command(CLI::App& app);

} // namespace s3fault::cli
