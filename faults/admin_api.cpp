#include "faults/admin_api.hpp"

#include "faults/config/build_rules.hpp"
#include "faults/config/fault_spec.hpp"
#include "faults/config/rule_file.hpp"
#include "faults/config/rule_parser.hpp"

namespace s3fault::faults {
admin_reply error_reply(unsigned status, std::string_view code, std::string message,
                        const error_list& details) {
  // details always present (empty when there are none): clients read one shape.
  return {status,
          {{"error", {{"code", code}, {"message", std::move(message)}, {"details", details}}}}};
}

namespace {

/// What a change body holds: the rules, and the seed when it gave one.
struct body_rules {
  std::vector<rule> rules;
  std::optional<std::uint64_t> seed;
};

/// `value` as a list of strings: one string, or an array of them.
std::optional<std::vector<std::string>> strings_of(const nlohmann::json& value) {
  if (value.is_string()) {
    return std::vector<std::string>{value.get<std::string>()};
  }
  if (!value.is_array()) {
    return std::nullopt;
  }
  std::vector<std::string> strings;
  for (const auto& item : value) {
    if (!item.is_string()) {
      return std::nullopt;
    }
    strings.push_back(item.get<std::string>());
  }
  return strings;
}

/// Rules from {"faults": [ONE-LINE...], "presets": [NAME[:k=v]...], "seed": N}, built as the
/// command line's --fault and --preset are (presets first).
std::optional<body_rules> rules_from_sources(const nlohmann::json& document, admin_reply& failure) {
  config::rule_sources sources;
  error_list errors;
  for (const auto& [key, value] : document.items()) {
    auto strings = strings_of(value);
    if (key == "faults" && strings) {
      sources.fault_specs = std::move(*strings);
    } else if (key == "presets" && strings) {
      sources.presets = std::move(*strings);
    } else if (key == "seed" && value.is_number_unsigned()) {
      sources.seed = value.get<std::uint64_t>();
    } else if (key == "faults" || key == "presets" || key == "seed") {
      errors.push_back(key + (key == "seed" ? ": must be a whole number >= 0"
                                            : ": must be a string or a list of strings"));
    } else {
      errors.push_back(key + ": unknown key beside faults/presets (allowed: faults, presets, "
                             "seed)");
    }
  }
  if (errors.empty()) {
    auto built = config::build_rules(sources);
    if (built.ok()) {
      return body_rules{std::move(built.rules), sources.seed};
    }
    errors = std::move(built.errors);
  }
  failure =
      error_reply(400, "invalid_rules", "the rules are not valid; nothing was changed", errors);
  return std::nullopt;
}

/// Rules from a YAML rules document, as in a --faults file.
std::optional<body_rules> rules_from_yaml(std::string_view body, admin_reply& failure) {
  error_list errors;
  auto document =
      config::read_rule_text(body, "request body", errors, config::rule_file_format::yaml);
  if (errors.empty()) {
    auto built = config::parse_rules(document.entries);
    if (built.ok()) {
      return body_rules{std::move(built.rules), document.seed};
    }
    errors = std::move(built.errors);
  }
  failure = error_reply(400, "invalid_rules", "the YAML rules are not valid; nothing was changed",
                        errors);
  return std::nullopt;
}

/// Whether a one-line rule gives its name (`name=...`).
bool spec_names_its_rule(std::string_view spec) {
  error_list errors;
  const auto rule_json = config::fault_spec_to_json(spec, errors);
  return rule_json && rule_json->contains("name");
}

/// Whether a body is JSON: its first character that is not white space opens an object or array.
bool looks_like_json(std::string_view body) {
  const auto first = body.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (body[first] == '{' || body[first] == '[');
}

// Rules from a request body: a rule object, a list, {"seed","rules"}, {"fault": "spec"} (with
// an optional "seed" beside it), {"faults": [...], "presets": [...]}, or a YAML rules document.
// A single rule (an object, or "fault") without a name is called `name_if_absent`, if given.
std::optional<body_rules> rules_from_body(std::string_view body, admin_reply& failure,
                                          std::string_view name_if_absent = {}) {
  if (!looks_like_json(body)) {
    return rules_from_yaml(body, failure);
  }
  const auto document = nlohmann::json::parse(body, nullptr, false);
  if (document.is_discarded()) {
    failure = error_reply(400, "invalid_json", "the body is not valid JSON");
    return std::nullopt;
  }
  if (document.is_object() && (document.contains("faults") || document.contains("presets"))) {
    return rules_from_sources(document, failure);
  }
  nlohmann::json rules_document = document;
  if (document.is_object() && document.contains("fault")) {
    if (!document["fault"].is_string()) {
      failure = error_reply(400, "invalid_rules", "fault: must be a one-line rule (a string)");
      return std::nullopt;
    }
    // Built as `--fault` is, so that its mistakes read exactly as `--check` prints them.
    std::string spec = document["fault"].get<std::string>();
    if (!name_if_absent.empty() && !spec_names_its_rule(spec)) {
      spec += " name=" + config::spec_word(name_if_absent);
    }
    nlohmann::json sources = document;
    sources.erase("fault");
    sources["faults"] = nlohmann::json::array({spec});
    return rules_from_sources(sources, failure);
  } else if (document.is_object() && !document.contains("rules")) {
    rules_document = nlohmann::json::array({document});
    if (!name_if_absent.empty() && !document.contains("name")) {
      rules_document[0]["name"] = name_if_absent;
    }
  }
  auto built = config::parse_rule_document(rules_document, "request body");
  if (!built.ok()) {
    failure = error_reply(400, "invalid_rules", "the rules are not valid; nothing was changed",
                          built.errors);
    return std::nullopt;
  }
  return body_rules{std::move(built.rules), built.seed};
}

/// Every rule and the seed; with `last_reload` once a reload has run, so that whoever steers
/// from the API or the page learns which of their changes a reload dropped.
nlohmann::json describe_all(const rule_store& store) {
  const auto rules = store.current();
  nlohmann::json list = nlohmann::json::array();
  for (const auto& r : rules->rules()) {
    list.push_back(describe_rule(r));
  }
  nlohmann::json all = {{"seed", rules->seed()}, {"rules", list}};
  if (const auto reload = store.last_reload()) {
    all["last_reload"] = reload_notice_json(*reload);
  }
  return all;
}

const rule* find_rule(const rule_set& rules, std::string_view name) {
  for (const auto& r : rules.rules()) {
    if (r.name == name) {
      return &r;
    }
  }
  return nullptr;
}

/// PUT /rules/NAME: the body's one rule in the place of NAME's.
admin_reply replace_rule(rule_store& store, std::string_view name, std::string_view body) {
  admin_reply failure;
  auto given = rules_from_body(body, failure, name);
  if (!given) {
    return failure;
  }
  if (given->rules.size() != 1) {
    return error_reply(400, "one_rule_expected",
                       "PUT /rules/NAME takes one rule, the body has " +
                           std::to_string(given->rules.size()) + "; nothing was changed");
  }
  if (given->rules[0].name != name) {
    return error_reply(400, "name_differs",
                       "the body names its rule '" + given->rules[0].name + "', the path '" +
                           std::string(name) +
                           "': leave the name out or give the same; nothing was changed");
  }
  if (given->seed && *given->seed != store.seed()) {
    return error_reply(400, "seed_differs",
                       "a seed belongs to the whole rule set: PUT /rules to reseed; nothing "
                       "was changed");
  }
  if (store.replace_one(name, std::move(given->rules[0])) ==
      rule_store::change_error::no_such_rule) {
    return error_reply(404, "no_such_rule",
                       "no rule named '" + std::string(name) + "' (POST /rules adds one)");
  }
  const auto snapshot = store.current();
  return {200, describe_rule(*find_rule(*snapshot, name))};
}

} // namespace

nlohmann::json describe_rule(const rule& r) {
  nlohmann::json counters = {{"matched", r.state->matched.load()},
                             {"injected", r.state->injected.load()},
                             {"skipped", r.state->skipped.load()}};
  if (r.schedule.load_shaped()) {
    // The load the rule sees: slots held now and at most, and its injections for being over.
    counters["in_flight"] = r.state->in_flight.load();
    counters["peak_in_flight"] = r.state->peak_in_flight.load();
    counters["refusals"] = r.state->refusals.load();
  }
  // The rule as one --fault line, or null when one line cannot say it (several actions).
  const auto spec = config::fault_spec_of(r.definition);
  return {{"name", r.name},
          {"enabled", r.enabled},
          {"definition", r.definition},
          {"fault", spec ? nlohmann::json(*spec) : nlohmann::json()},
          {"counters", std::move(counters)}};
}

admin_reply handle_admin_request(rule_store& store, std::string_view method,
                                 std::string_view target, std::string_view body,
                                 std::string_view version) {
  const std::string_view path = target.substr(0, target.find('?'));
  if (path == "/health" && method == "GET") {
    return {200, {{"status", "ok"}}};
  }
  if (path == "/version" && method == "GET") {
    return {200, {{"version", version}}};
  }
  if (path == "/rules") {
    if (method == "GET") {
      return {200, describe_all(store)};
    }
    if (method == "DELETE") {
      store.replace_all({});
      return {200, describe_all(store)};
    }
    if (method == "POST" || method == "PUT") {
      admin_reply failure;
      auto given = rules_from_body(body, failure);
      if (!given) {
        return failure;
      }
      if (method == "PUT") {
        store.replace_all(std::move(given->rules), given->seed);
        return {200, describe_all(store)};
      }
      std::string taken;
      switch (store.add(std::move(given->rules), taken, given->seed)) {
      case rule_store::change_error::name_taken:
        return error_reply(409, "name_taken", "a rule named '" + taken + "' already exists");
      case rule_store::change_error::seed_differs:
        return error_reply(400, "seed_differs",
                           "seed " + std::to_string(*given->seed) + " differs from the seed " +
                               std::to_string(store.seed()) +
                               " in force; a seed belongs to the whole rule set, so adding rules "
                               "cannot change it: PUT /rules with the seed and every rule "
                               "instead; nothing was changed");
      default:
        return {201, describe_all(store)};
      }
    }
    return error_reply(405, "method_not_allowed", "use GET, POST, PUT or DELETE on /rules");
  }
  if (path.starts_with("/rules/")) {
    std::string_view name = path.substr(7);
    std::string_view verb;
    if (const auto slash = name.find('/'); slash != std::string_view::npos) {
      verb = name.substr(slash + 1);
      name = name.substr(0, slash);
    }
    if (verb.empty() && method == "GET") {
      const auto snapshot = store.current();
      if (const rule* r = find_rule(*snapshot, name)) {
        return {200, describe_rule(*r)};
      }
      return error_reply(404, "no_such_rule", "no rule named '" + std::string(name) + "'");
    }
    if (verb.empty() && method == "PUT") {
      return replace_rule(store, name, body);
    }
    if (verb.empty() && method == "DELETE") {
      if (store.remove(name) == rule_store::change_error::no_such_rule) {
        return error_reply(404, "no_such_rule", "no rule named '" + std::string(name) + "'");
      }
      return {200, describe_all(store)};
    }
    if ((verb == "enable" || verb == "disable") && method == "POST") {
      if (store.set_enabled(name, verb == "enable") == rule_store::change_error::no_such_rule) {
        return error_reply(404, "no_such_rule", "no rule named '" + std::string(name) + "'");
      }
      const auto snapshot = store.current();
      return {200, describe_rule(*find_rule(*snapshot, name))};
    }
    return error_reply(405, "method_not_allowed",
                       "use GET, PUT or DELETE on /rules/NAME, POST on /rules/NAME/enable|disable");
  }
  return error_reply(404, "not_found", "no such endpoint: " + std::string(path));
}

std::string admin_body_text(const nlohmann::json& body) {
  return body.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

} // namespace s3fault::faults
