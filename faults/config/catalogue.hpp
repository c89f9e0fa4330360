#pragma once
// The fault catalogue as text, made from the registries themselves (action_kinds(), presets()),
// so --help and the tables of docs/faults.md can never leave an action or a preset out.
#include <cstddef>
#include <string>

namespace s3fault::faults::config {

/// Every action in columns: the type, then its parameters (positional ones bare, the others as
/// NAME=), what it does and an example, wrapped to `width` characters.
std::string actions_text(std::size_t width);
/// Every preset in columns: name and description, wrapped to `width` characters.
std::string presets_text(std::size_t width);
/// The actions table of docs/faults.md (Markdown), one row per action.
std::string actions_markdown();

} // namespace s3fault::faults::config
