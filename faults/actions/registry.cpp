#include "faults/action_registry.hpp"

#include "faults/actions/kinds.hpp"

namespace s3fault::faults {

const std::vector<action_kind>& action_kinds() {
  static const std::vector<action_kind> kinds = {
      actions::delay_kind(),
      actions::error_kind(),
      actions::reset_kind(),
      actions::hang_kind(),
      actions::forward_then_error_kind(),
      actions::strip_header_kind(),
      actions::set_header_kind(),
      actions::set_status_kind(),
      actions::first_byte_delay_kind(),
      actions::truncate_kind(),
      actions::corrupt_kind(),
      actions::throttle_kind(),
      actions::stall_kind(),
      actions::reset_after_kind(),
      actions::request_throttle_kind(),
      actions::request_reset_after_kind(),
  };
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
