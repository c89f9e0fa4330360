#pragma once
// The store misbehaviours a reader is put through, each as fault rules for the gate's proxy and
// an expectation saying which verdicts are acceptable. The built-in ones and a user's own come
// from the same YAML format (gate_matrix.hpp).
#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::gate {

/// must-recover: the right bytes can be obtained, so only CORRECT passes.
/// must-not-corrupt: CORRECT or REJECTED pass (the reader may give up, loudly).
/// informational: anything but SILENT_CORRUPTION and HUNG passes (timing scenarios).
enum class expectation { must_recover, must_not_corrupt, informational };
std::string_view to_string(expectation value);
/// The expectation to_string names ("must-not-corrupt"), or nullopt.
std::optional<expectation> expectation_from_string(std::string_view text);

/// Something the gate does itself during a run, beyond fault rules.
enum class scenario_action {
  none,
  replace_after_first_read, // readers: the object is replaced (same size, other bytes) after the
                            // first GET
  overwrite, // writers: the key holds another object (one PUT, same size, other bytes) when the
             // writer starts, so a failed upload must leave it there
};
/// Whether the action is one the gate can make for `writer` runs (else for readers).
bool action_fits(scenario_action action, bool writer);
std::string_view to_string(scenario_action value);
/// The action to_string names ("replace-after-first-read"), or nullopt.
std::optional<scenario_action> action_from_string(std::string_view text);

struct scenario {
  std::string name;        // "strip-parts-count"
  std::string description; // one line for tables: "x-amz-mp-parts-count removed"
  std::string why;         // what it finds in a reader (may be empty)
  expectation expect = expectation::must_recover;
  /// Rule definitions as a rules file holds them ({"match", "schedule", "actions"}), already
  /// checked; the gate adds match.key (the run's key) when it installs them.
  std::vector<nlohmann::json> rules;
  /// The same rules as written, for --list and reports ("truncate 50% op=GetObject", or the
  /// JSON of a rule given in the rules-file form).
  std::vector<std::string> rules_text;
  std::vector<std::string> shape_globs{"*"}; // the shapes it applies to
  bool multipart_only = false;               // ... and only the multipart ones among them
  /// A verdict counts only when a rule was injected on the run's key; false for scenarios
  /// judged without an injection (baseline, replaced-between-reads).
  bool needs_injection = true;
  scenario_action action = scenario_action::none;
  /// How long a run may take before it is HUNG, instead of the gate's --timeout: for a scenario
  /// that tests the client's own timeout (a store that never answers), the time after which
  /// still waiting is hanging, whatever --timeout says.
  std::optional<std::chrono::milliseconds> timeout;
  std::string origin; // where it is defined: "builtin-matrix.yaml:12", "mine.yaml:3"
};

} // namespace s3fault::gate
