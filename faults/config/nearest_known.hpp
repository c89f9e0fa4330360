#pragma once
// The list that follows an unknown name in a config error, with the names nearest to it first
// (text::nearest_names), so that a typo is answered with the name that was meant:
//
//   unknown operation 'HeadObjekt' (nearest: HeadObject; known: GetObject, HeadObject, ...)
//   match.operatons: unknown key (nearest: operations; allowed: operations, methods, ...)
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::faults::config {

/// "(nearest: A, B; LABEL: every name of `known`)", or "(LABEL: ...)" when none is near
/// `unknown`. `label` is "known" or "allowed".
std::string nearest_and_known(std::string_view unknown, const std::vector<std::string_view>& known,
                              std::string_view label = "known");

/// "nearest: A, B" for the names of `known` nearest to `unknown`; empty when none is near.
std::string nearest_clause(std::string_view unknown, const std::vector<std::string_view>& known);

/// "unknown action 'trunc' (nearest: truncate; known: delay, error, ...)".
std::string unknown_action(std::string_view type);

} // namespace s3fault::faults::config
