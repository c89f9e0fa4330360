#include "faults/action_registry.hpp"

namespace s3fault::faults {

// Every action type, one line each, in the order --help and docs/faults.md list them. Each
// NAME_kind() is defined in the action's own file in this folder.
#define S3FAULT_ACTION_KINDS(KIND)                                                                 \
  KIND(delay)                                                                                      \
  KIND(error)                                                                                      \
  KIND(reset)                                                                                      \
  KIND(hang)                                                                                       \
  KIND(forward_then_error)                                                                         \
  KIND(forward_then_reset)                                                                         \
  KIND(strip_query)                                                                                \
  KIND(set_query)                                                                                  \
  KIND(strip_request_header)                                                                       \
  KIND(set_request_header)                                                                         \
  KIND(rewrite_request_header)                                                                     \
  KIND(resign)                                                                                     \
  KIND(head_as_get)                                                                                \
  KIND(strip_header)                                                                               \
  KIND(set_header)                                                                                 \
  KIND(set_status)                                                                                 \
  KIND(first_byte_delay)                                                                           \
  KIND(xml_set)                                                                                    \
  KIND(xml_remove)                                                                                 \
  KIND(replace_with_error)                                                                         \
  KIND(truncate)                                                                                   \
  KIND(corrupt)                                                                                    \
  KIND(throttle)                                                                                   \
  KIND(stall)                                                                                      \
  KIND(reset_after)                                                                                \
  KIND(request_throttle)                                                                           \
  KIND(request_stall)                                                                              \
  KIND(request_reset_after)                                                                        \
  KIND(request_corrupt)

namespace actions {
#define S3FAULT_DECLARE_KIND(name) action_kind name##_kind();
S3FAULT_ACTION_KINDS(S3FAULT_DECLARE_KIND)
#undef S3FAULT_DECLARE_KIND
} // namespace actions

const std::vector<action_kind>& action_kinds() {
#define S3FAULT_LIST_KIND(name) actions::name##_kind(),
  static const std::vector<action_kind> kinds = {S3FAULT_ACTION_KINDS(S3FAULT_LIST_KIND)};
#undef S3FAULT_LIST_KIND
  return kinds;
}

const action_kind* find_action_kind(std::string_view type) {
  for (const auto& kind : action_kinds()) {
    if (kind.type == type) {
      return &kind;
    }
  }
  return nullptr;
}

std::string join_names(const std::vector<std::string_view>& names) {
  std::string text;
  for (const auto name : names) {
    text += text.empty() ? "" : ", ";
    text += name;
  }
  return text;
}

std::string known_action_list() {
  std::vector<std::string_view> names;
  for (const auto& kind : action_kinds()) {
    names.push_back(kind.type);
  }
  return join_names(names);
}

} // namespace s3fault::faults
