#include "faults/config/profiles.hpp"

#include "faults/config/nearest_known.hpp"
#include "faults/config/rule_file.hpp"

#include <algorithm>
#include <filesystem>

namespace s3fault::faults::config {
namespace {

using nlohmann::json;

std::optional<std::string> required_text(const json& section, const std::string& key,
                                         const std::string& prefix, error_list& errors) {
  if (!section.contains(key)) {
    errors.push_back(prefix + "profile." + key + ": missing (text)");
    return std::nullopt;
  }
  if (!section[key].is_string() || section[key].get<std::string>().empty()) {
    errors.push_back(prefix + "profile." + key + ": must be text (got " + section[key].dump() +
                     ")");
    return std::nullopt;
  }
  return section[key].get<std::string>();
}

void read_not_reproduced(const json& list, const std::string& prefix,
                         profile_description& description, error_list& errors) {
  if (!list.is_array()) {
    errors.push_back(prefix + "profile.not_reproduced: must be a list of {check, why}");
    return;
  }
  for (std::size_t i = 0; i < list.size(); ++i) {
    const json& item = list[i];
    const std::string where = prefix + "profile.not_reproduced[" + std::to_string(i) + "]";
    if (!item.is_object() || !item.contains("check") || !item.contains("why") ||
        !item["check"].is_string() || !item["why"].is_string() || item.size() != 2) {
      errors.push_back(where + ": must be {check: ID, why: TEXT} (got " + item.dump() + ")");
      continue;
    }
    description.not_reproduced.emplace_back(item["check"], item["why"]);
  }
}

std::vector<std::string_view> shipped_name_list() {
  std::vector<std::string_view> names;
  for (const auto& p : shipped_profiles()) {
    names.push_back(p.name);
  }
  return names;
}

std::string shipped_names() {
  return join_names(shipped_name_list());
}

} // namespace

const shipped_profile* find_shipped_profile(std::string_view name) {
  const auto& all = shipped_profiles();
  const auto found = std::find_if(all.begin(), all.end(),
                                  [&](const shipped_profile& p) { return p.name == name; });
  return found == all.end() ? nullptr : &*found;
}

std::optional<profile_description>
read_profile_description(const json& section, const std::string& origin, error_list& errors) {
  const std::string prefix = origin.empty() ? "" : origin + ": ";
  const std::size_t before = errors.size();
  if (!section.is_object()) {
    errors.push_back(prefix +
                     "profile: must be an object with name, description, store, "
                     "version (got " +
                     section.dump() + ")");
    return std::nullopt;
  }
  constexpr std::array<std::string_view, 6> allowed = {"name",    "description", "store",
                                                       "version", "source",      "not_reproduced"};
  for (const auto& [key, value] : section.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      errors.push_back(prefix + "profile." + key + ": unknown key " +
                       nearest_and_known(key, {allowed.begin(), allowed.end()}, "allowed"));
    }
  }
  profile_description description;
  description.name = required_text(section, "name", prefix, errors).value_or("");
  description.description = required_text(section, "description", prefix, errors).value_or("");
  description.store = required_text(section, "store", prefix, errors).value_or("");
  description.version = required_text(section, "version", prefix, errors).value_or("");
  if (section.contains("source")) {
    description.source = required_text(section, "source", prefix, errors).value_or("");
  }
  if (section.contains("not_reproduced")) {
    read_not_reproduced(section["not_reproduced"], prefix, description, errors);
  }
  if (errors.size() != before) {
    return std::nullopt;
  }
  return description;
}

std::optional<loaded_profile> load_profile(const std::string& name_or_path, error_list& errors) {
  const std::size_t before = errors.size();
  loaded_profile loaded;
  std::string origin;
  if (const auto* shipped = find_shipped_profile(name_or_path)) {
    origin = "profile " + std::string(shipped->name);
    loaded.rules = read_rule_text(shipped->text, origin + ".yaml", errors);
  } else if (!std::filesystem::exists(name_or_path)) {
    const std::string near = nearest_clause(name_or_path, shipped_name_list());
    errors.push_back("profile '" + name_or_path + "': neither a shipped profile (" +
                     (near.empty() ? "" : near + "; shipped: ") + shipped_names() + ") nor a file");
    return std::nullopt;
  } else {
    origin = name_or_path;
    loaded.rules = load_rule_file(name_or_path, errors);
  }
  if (errors.size() != before) {
    return std::nullopt;
  }
  if (!loaded.rules.profile) {
    errors.push_back(origin + ": not a profile (a rules file with a profile: section; shipped: " +
                     shipped_names() + ")");
    return std::nullopt;
  }
  auto description = read_profile_description(*loaded.rules.profile, origin, errors);
  if (!description) {
    return std::nullopt;
  }
  loaded.description = std::move(*description);
  return loaded;
}

} // namespace s3fault::faults::config
