#pragma once
// Shared helpers of the rule configuration tests.
#include "faults/action_registry.hpp"
#include "faults/config/rule_parser.hpp"
#include "faults/s3_request.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace s3fault::faults::config::testing {

/// "delay, error, ...": the list messages give after "known:".
inline std::string known_actions() {
  std::string text;
  for (const auto& kind : action_kinds()) {
    text += (text.empty() ? "" : ", ") + std::string(kind.type);
  }
  return text;
}

/// What follows an unknown operation's nearest names: the catalogue is too long to list.
inline std::string operations_hint() {
  return "'s3fault proxy --list-operations' lists every S3 operation and the sets @multipart, "
         "@read, @write";
}

/// Validates one rule written as JSON text, as the only rule of a document.
inline rule_build build_one(std::string_view rule_json) {
  return parse_rule_document(
      nlohmann::json{{"rules", nlohmann::json::array({nlohmann::json::parse(rule_json)})}});
}

} // namespace s3fault::faults::config::testing
