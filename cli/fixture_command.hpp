#pragma once
#include <CLI/CLI.hpp>

#include <functional>

namespace s3fault::cli {

/// `s3fault fixture`: uploads a gate run's object (seeded bytes in a shape's layout), as the
/// repro of a failing gate run does.
std::function<int()> add_fixture_command(CLI::App& app);

} // namespace s3fault::cli
