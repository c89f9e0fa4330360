#pragma once
// The catalogue of fault action types. Adding an action = one file in faults/actions/ (its
// parameters, validation, behaviour and an NAME_kind() that describes it) plus one line in the
// list of faults/actions/registry.cpp. CMake compiles every file of the folder; the tests, the
// --help text and the table in docs/faults.md are made from this catalogue.
#include "faults/fault_action.hpp"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::faults {

/// Validation messages of one entry, each "field: what is wrong (what is allowed)".
using error_list = std::vector<std::string>;

struct action_kind {
  std::string_view type; // "strip-header"
  action_phase phase;
  std::string_view summary;                 // one line, for --help and docs/faults.md
  std::vector<std::string_view> positional; // parameter names taken by position in `--fault`
  /// Builds the action from its parameters (a JSON object; "type" may be present and is
  /// ignored). Returns nullptr and appends to `errors` when a parameter is missing or invalid;
  /// unknown parameters are errors too.
  std::function<std::shared_ptr<const fault_action>(const nlohmann::json& params,
                                                    error_list& errors)>
      parse;
  /// Every parameter name the action takes (positional ones included), so the one-line syntax
  /// can tell an action parameter from a misspelt key and list what is allowed.
  std::vector<std::string_view> parameters = {};
  /// A valid one-line rule using the action, for --help, the docs and the registry's tests.
  std::string_view example = {};
};

const std::vector<action_kind>& action_kinds();

/// Names joined with ", ", for messages.
std::string join_names(const std::vector<std::string_view>& names);
/// Every action type, joined with ", ", for messages.
std::string known_action_list();
/// nullptr for an unknown type.
const action_kind* find_action_kind(std::string_view type);

} // namespace s3fault::faults
