#pragma once
// Store profiles: a rules file that makes a store behave like another one (RGW 16.2, s3rver 3.7,
// RustFS 1.0.0-rc.5), with a `profile:` section saying what it imitates and, per rule, the
// audit checks it reproduces (`reproduces:`). The shipped ones are the YAML files of
// faults/profiles/, compiled into the binary; `--profile` takes their name or a file.
#include "faults/config/rule_parser.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace s3fault::faults::config {

struct profile_description {
  std::string name;        // rgw-16.2
  std::string description; // one paragraph
  std::string store;       // Ceph RADOS Gateway
  std::string version;     // 16.2.15 (pacific)
  std::string source;      // where the deviations were learned (an audit, a public report)
  /// Deviations of the store no action reproduces: (audit check id or topic, why).
  std::vector<std::pair<std::string, std::string>> not_reproduced;
};

struct shipped_profile {
  std::string_view name; // the file name without .yaml
  std::string_view text; // the YAML as shipped
};

/// Every shipped profile, by name.
const std::vector<shipped_profile>& shipped_profiles();
const shipped_profile* find_shipped_profile(std::string_view name);

struct loaded_profile {
  profile_description description;
  rule_document rules;
};

/// A shipped profile by name, else a profile file. Mistakes are appended to `errors` as
/// "profile NAME: ..." (or "FILE:LINE: ..."); nullopt when there is any.
std::optional<loaded_profile> load_profile(const std::string& name_or_path, error_list& errors);

/// Reads a document's "profile" section; mistakes are appended, prefixed with `origin`.
std::optional<profile_description> read_profile_description(const nlohmann::json& section,
                                                            const std::string& origin,
                                                            error_list& errors);

} // namespace s3fault::faults::config
