#pragma once
// "Did you mean": the known names nearest to a name nobody knows, for every error that refuses a
// name (a scenario, a shape, a check, an operation, a preset, a profile, a bench operation), so
// that a typo is answered with the name that was meant.
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::text {

/// Edits (insert, delete, replace one character, or swap two neighbours) that turn `a` into
/// `b`, ASCII case ignored.
std::size_t edit_distance(std::string_view a, std::string_view b);

/// Up to `at_most` of `known`, nearest to `unknown` first (ties in `known`'s order). Only names
/// within a few edits count (about a third of the longer name), and a known name that starts
/// with `unknown` or contains it counts too; none when nothing is near.
std::vector<std::string> nearest_names(std::string_view unknown,
                                       const std::vector<std::string>& known,
                                       std::size_t at_most = 3);

/// "'slowdwn-first-2' (nearest: slowdown-first-2)", or "'x'" when nothing is near.
std::string quoted_with_nearest(std::string_view unknown, const std::vector<std::string>& known);

} // namespace s3fault::text
