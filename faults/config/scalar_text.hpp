#pragma once
// Plain text scalars (unquoted YAML scalars, `--fault` values) and how they become JSON.
#include <nlohmann/json.hpp>

#include <string_view>

namespace s3fault::faults::config {

/// The JSON value an unquoted scalar stands for, the way YAML's core schema reads it: integers
/// and decimal numbers become numbers, true/false (any case) booleans, anything else (sizes like
/// "1MiB", "50%", durations, names) stays a string. Quoted scalars never come here.
nlohmann::json scalar_from_text(std::string_view text);

} // namespace s3fault::faults::config
