#pragma once
// The fault catalogue as text, made from the registries themselves (action_kinds(), presets(),
// the S3 operations), so --help and the tables of docs/faults.md can never leave one out.
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
/// Every S3 operation `op=` knows, from the catalogue of AWS's model (faults/operations/): name,
/// request form and object body; aliases marked; then the sets (@multipart, ...).
std::string operations_text(std::size_t width);
/// The operations table of docs/faults.md (Markdown), one row per operation of the model.
std::string operations_markdown();

} // namespace s3fault::faults::config
