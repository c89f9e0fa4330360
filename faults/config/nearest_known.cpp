#include "faults/config/nearest_known.hpp"

#include "faults/action_registry.hpp"
#include "text/nearest_names.hpp"

namespace s3fault::faults::config {

std::string nearest_clause(std::string_view unknown, const std::vector<std::string_view>& known) {
  const std::vector<std::string> names(known.begin(), known.end());
  const auto near = text::nearest_names(unknown, names);
  std::string clause;
  for (const auto& name : near) {
    clause += (clause.empty() ? "nearest: " : ", ") + name;
  }
  return clause;
}

std::string nearest_and_known(std::string_view unknown, const std::vector<std::string_view>& known,
                              std::string_view label) {
  const std::string near = nearest_clause(unknown, known);
  return "(" + (near.empty() ? "" : near + "; ") + std::string(label) + ": " + join_names(known) +
         ")";
}

std::string unknown_action(std::string_view type) {
  std::vector<std::string_view> known;
  for (const auto& kind : action_kinds()) {
    known.push_back(kind.type);
  }
  return "unknown action '" + std::string(type) + "' " + nearest_and_known(type, known);
}

} // namespace s3fault::faults::config
