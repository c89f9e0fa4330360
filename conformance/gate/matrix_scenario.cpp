// Scenario entries of a matrix file. A scenario's rules are checked by the proxy's own parser
// (faults::config::parse_rules) as one rule set, the way the gate installs them, so a scenario
// that reads here is one the proxy accepts.
#include "conformance/gate/matrix_entries.hpp"
#include "conformance/gate/matrix_fields.hpp"

#include "faults/config/fault_spec.hpp"
#include "faults/config/nearest_known.hpp"
#include "faults/config/rule_parser.hpp"
#include "faults/rule.hpp"
#include "faults/values.hpp"

namespace s3fault::gate {
namespace {

using nlohmann::json;

const std::vector<std::string_view> scenario_fields = {
    "name",           "description",     "why",    "expect", "rules", "shapes",
    "multipart_only", "needs_injection", "action", "timeout"};

expectation read_expect(item_fields& fields) {
  const auto written =
      fields.choice("expect", {"must-recover", "must-not-corrupt", "informational"});
  return expectation_from_string(written.value_or("")).value_or(expectation::must_recover);
}

/// The action; one the gate's role cannot make is a mistake, found here with the others rather
/// than when the gate starts.
scenario_action read_action(item_fields& fields, std::optional<run_role> role) {
  const auto written = fields.choice("action", {"none", "replace-after-first-read", "overwrite"});
  const scenario_action action =
      action_from_string(written.value_or("")).value_or(scenario_action::none);
  if (role && !action_fits(action, *role == run_role::writer)) {
    // Worded as the gate words it (gate_runner.cpp), on the line of the field.
    fields.add_error(fields.place("action") + ": action " + std::string(to_string(action)) +
                     " is for " + (*role == run_role::writer ? "readers" : "writers") +
                     "; this gate runs a " + std::string(role_name(*role)));
  }
  return action;
}

/// A glob that matches none of `shapes` would leave the scenario without runs, unseen.
void refuse_unmatched_glob(item_fields& fields, const std::string& where, const std::string& glob,
                           const std::vector<std::string>& shapes) {
  for (const auto& shape : shapes) {
    if (faults::glob_matches(glob, shape)) {
      return;
    }
  }
  const std::vector<std::string_view> names(shapes.begin(), shapes.end());
  fields.fail(where, "no shape matches '" + glob + "' " +
                         faults::config::nearest_and_known(glob, names, "shapes"));
}

std::vector<std::string> read_shape_globs(item_fields& fields,
                                          const std::optional<std::vector<std::string>>& shapes) {
  if (!fields.has("shapes")) {
    return {"*"};
  }
  const json& globs = fields.get("shapes");
  constexpr std::string_view what = "a list of shape names or globs like [\"mp-*\"]";
  if (!globs.is_array() || globs.empty()) {
    fields.must_be("shapes", what, globs);
    return {};
  }
  std::vector<std::string> result;
  for (std::size_t i = 0; i < globs.size(); ++i) {
    const std::string where = "shapes[" + std::to_string(i + 1) + "]";
    if (!globs[i].is_string() || globs[i].get<std::string>().empty()) {
      fields.must_be(where, "a shape name or glob", globs[i]);
      continue;
    }
    if (shapes) {
      refuse_unmatched_glob(fields, where, globs[i].get<std::string>(), *shapes);
    }
    result.push_back(globs[i].get<std::string>());
  }
  return result;
}

/// One entry of `rules` as rule JSON: a `--fault` line through the proxy's spec reader, a
/// mapping as it is. nullopt after a mistake.
std::optional<json> rule_definition(item_fields& fields, const std::string& where,
                                    const json& written) {
  if (written.is_object()) {
    return written;
  }
  if (!written.is_string()) {
    fields.must_be(where,
                   "a one-line rule like \"truncate 50% op=GetObject\" or a mapping with match, "
                   "schedule and actions",
                   written);
    return std::nullopt;
  }
  faults::error_list spec_errors;
  auto definition = faults::config::fault_spec_to_json(written.get<std::string>(), spec_errors);
  for (const auto& message : spec_errors) {
    fields.fail(where, message);
  }
  return spec_errors.empty() ? definition : std::nullopt;
}

/// The gate limits every rule to the run's own key; a rule that names a key would fight it.
void refuse_match_key(item_fields& fields, const std::string& where, const json& definition) {
  const bool names_key = definition.contains("match") && definition["match"].is_object() &&
                         definition["match"].contains("key");
  if (names_key) {
    fields.fail(where, "match.key: not allowed: the gate sets it to the key of each run's object");
  }
}

/// The rules as rule JSON and as written; all of them validated together by parse_rules, which
/// also sees that their names are unique.
void read_rules(item_fields& fields, scenario& s) {
  if (!fields.has("rules") || fields.get("rules").is_null()) {
    return;
  }
  const json& list = fields.get("rules");
  if (!list.is_array()) {
    fields.must_be("rules", "a list of rules", list);
    return;
  }
  std::vector<faults::config::rule_entry> entries;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string where = "rules[" + std::to_string(i + 1) + "]";
    auto definition = rule_definition(fields, where, list[i]);
    if (!definition) {
      continue;
    }
    refuse_match_key(fields, where, *definition);
    // number 0: the origin alone names the rule, as "FILE:LINE: scenario N (NAME): rules[I]",
    // with the line of the field each message names.
    faults::config::rule_entry entry;
    entry.definition = *definition;
    entry.origin = fields.place(where) + ": " + where;
    entry.file = fields.file();
    entry.label = fields.label() + ": " + where;
    entry.field_lines = fields.lines_under(where);
    entries.push_back(std::move(entry));
    s.rules.push_back(std::move(*definition));
    s.rules_text.push_back(list[i].is_string()
                               ? list[i].get<std::string>()
                               : list[i].dump(-1, ' ', false, json::error_handler_t::replace));
  }
  for (const auto& message : faults::config::parse_rules(entries).errors) {
    fields.add_error(message);
  }
}

/// A run's own timeout: a duration of at least one second ("90s", "2m", 90).
std::optional<std::chrono::milliseconds> read_timeout(item_fields& fields) {
  if (!fields.has("timeout")) {
    return std::nullopt;
  }
  const auto duration = faults::parse_duration(fields.get("timeout"));
  if (!duration || *duration < std::chrono::seconds(1)) {
    fields.must_be("timeout", "a duration of at least 1s, like \"90s\" or \"2m\"",
                   fields.get("timeout"));
    return std::nullopt;
  }
  return std::chrono::duration_cast<std::chrono::milliseconds>(*duration);
}

/// needs_injection defaults to whether there are rules. Asking for an injection with neither
/// rules nor an action would make every verdict of the scenario void.
bool read_needs_injection(item_fields& fields, const scenario& s) {
  const bool has_rules =
      fields.has("rules") && fields.get("rules").is_array() && !fields.get("rules").empty();
  const bool needs = fields.flag("needs_injection").value_or(has_rules);
  if (needs && !has_rules && s.action == scenario_action::none) {
    fields.fail("needs_injection",
                "true, but the scenario has no rules and no action, so nothing is injected "
                "(give it rules, or needs_injection: false)");
  }
  return needs;
}

} // namespace

scenario read_scenario(const matrix_item& item, const std::string& file, std::size_t number,
                       const matrix_context& context,
                       const std::optional<std::vector<std::string>>& shapes,
                       std::vector<std::string>& errors) {
  item_fields fields(item, file, "scenario", number, errors);
  scenario s;
  s.origin = fields.origin();
  if (!fields.is_mapping()) {
    fields.must_be("", "a mapping with name, description and rules", item.fields);
    return s;
  }
  fields.check_known(scenario_fields);
  s.name = fields.name().value_or("");
  s.description = fields.description().value_or("");
  s.why = fields.text("why", "text saying what the scenario finds in a reader").value_or("");
  s.expect = read_expect(fields);
  s.action = read_action(fields, context.role);
  read_rules(fields, s);
  s.shape_globs = read_shape_globs(fields, shapes);
  s.multipart_only = fields.flag("multipart_only").value_or(false);
  s.needs_injection = read_needs_injection(fields, s);
  s.timeout = read_timeout(fields);
  return s;
}

} // namespace s3fault::gate
