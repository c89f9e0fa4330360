#include "faults/config/fault_spec.hpp"

#include "faults/config/nearest_known.hpp"
#include "faults/config/rule_parser.hpp"
#include "faults/config/scalar_text.hpp"

#include <algorithm>
#include <set>

namespace s3fault::faults::config {
namespace {

using nlohmann::json;

/// Where a spec key goes in the rule JSON.
struct rule_key {
  std::string_view name;
  std::string_view section; // "match", "schedule", or "" for the rule's top level
  std::string_view field;
  bool repeatable; // collects a list instead of refusing a second value
};

const std::vector<rule_key>& rule_keys() {
  static const std::vector<rule_key> keys = {
      {"name", "", "name", false},
      {"enabled", "", "enabled", false},
      {"op", "match", "operations", true},
      {"method", "match", "methods", true},
      {"bucket", "match", "bucket", false},
      {"key", "match", "key", false},
      {"query", "match", "query", true},
      {"header", "match", "headers", true},
      {"status", "match", "status", true},
      {"part", "match", "part", false},
      {"covers", "match", "covers", false},
      {"p", "schedule", "probability", false},
      {"first", "schedule", "first", false},
      {"skip", "schedule", "skip", false},
      {"every", "schedule", "every", false},
      {"times", "schedule", "times", false},
      {"per-key", "schedule", "per_key", false},
      {"after", "schedule", "after", false},
      {"until", "schedule", "until", false},
      {"in-flight-over", "schedule", "in_flight_over", false},
      {"rate", "schedule", "rate", false},
      {"burst", "schedule", "burst", false},
      {"rate-per", "schedule", "rate_per", false},
      {"min-body", "schedule", "min_body", false},
  };
  return keys;
}

/// Other spellings accepted for rule keys (not listed in messages, to keep them short).
std::string_view canonical_key(std::string_view key) {
  static const std::vector<std::pair<std::string_view, std::string_view>> aliases = {
      {"ops", "op"},
      {"operation", "op"},
      {"operations", "op"},
      {"methods", "method"},
      {"headers", "header"},
      {"probability", "p"},
      {"per_key", "per-key"},
      {"in_flight_over", "in-flight-over"},
      {"rate_per", "rate-per"},
      {"min_body", "min-body"},
  };
  for (const auto& [alias, key_name] : aliases) {
    if (alias == key) {
      return key_name;
    }
  }
  return key;
}

const rule_key* find_rule_key(std::string_view key) {
  const std::string_view name = canonical_key(key);
  const auto& keys = rule_keys();
  const auto found =
      std::find_if(keys.begin(), keys.end(), [&](const rule_key& k) { return k.name == name; });
  return found == keys.end() ? nullptr : &*found;
}

/// The rule key behind a `match.FIELD` / `schedule.FIELD` word, so that it adds up with the
/// short form (`match.status=5xx status=503`) instead of clashing with it.
const rule_key* find_rule_field(std::string_view section, std::string_view field) {
  const auto& keys = rule_keys();
  const auto found = std::find_if(keys.begin(), keys.end(), [&](const rule_key& k) {
    return k.section == section && k.field == field;
  });
  return found == keys.end() ? nullptr : &*found;
}

/// Every parameter `kind` takes: its declared ones and its positional ones.
std::vector<std::string_view> parameters_of(const action_kind& kind) {
  std::vector<std::string_view> names = kind.positional;
  for (const auto parameter : kind.parameters) {
    if (std::find(names.begin(), names.end(), parameter) == names.end()) {
      names.push_back(parameter);
    }
  }
  return names;
}

/// The action parameter `key` names, tolerating '-' for '_'; empty when it names none.
std::string action_parameter(const action_kind& kind, std::string_view key) {
  std::string underscored(key);
  std::replace(underscored.begin(), underscored.end(), '-', '_');
  for (const auto parameter : parameters_of(kind)) {
    if (parameter == key || parameter == underscored) {
      return std::string(parameter);
    }
  }
  return {};
}

std::string positional_count(const action_kind& kind) {
  if (kind.positional.empty()) {
    return "'" + std::string(kind.type) + "' takes no positional values";
  }
  return "'" + std::string(kind.type) + "' takes " + std::to_string(kind.positional.size()) + " (" +
         join_names(kind.positional) + ")";
}

/// Reads the action word and the positional values and parameters shared by both syntaxes.
/// `on_other` gets every token that is neither; it returns false when it does not know it.
class action_reader {
public:
  explicit action_reader(error_list& errors) : errors_(errors) {}

  /// The first token: the action's type. nullptr when it is not an action.
  const action_kind* read_type(const std::vector<spec_token>& tokens) {
    if (tokens.empty()) {
      errors_.push_back("empty; expected ACTION [VALUE...] [key=value ...]");
      return nullptr;
    }
    const spec_token& first = tokens.front();
    if (first.has_key) {
      errors_.push_back("expected an action first (known: " + known_action_list() + "), got '" +
                        first.text + "'");
      return nullptr;
    }
    const action_kind* kind = find_action_kind(first.value);
    if (kind == nullptr) {
      errors_.push_back(unknown_action(first.value));
      return nullptr;
    }
    action_ = json::object({{"type", first.value}});
    return kind;
  }

  void add_positional(const action_kind& kind, const spec_token& token) {
    if (positional_used_ >= kind.positional.size()) {
      errors_.push_back("unexpected value '" + token.text + "': " + positional_count(kind));
      return;
    }
    set_parameter(std::string(kind.positional[positional_used_++]), token);
  }

  void set_parameter(const std::string& name, const spec_token& token) {
    if (action_.contains(name)) {
      errors_.push_back("'" + name + "' given twice");
      return;
    }
    action_[name] = token_value(token);
  }

  json& action() { return action_; }

private:
  error_list& errors_;
  json action_;
  std::size_t positional_used_ = 0;
};

bool missing_value(const spec_token& token, error_list& errors) {
  if (token.key.empty()) {
    errors.push_back("'" + token.text + "': missing key before '='");
    return true;
  }
  if (token.value.empty() && !token.quoted) {
    errors.push_back("'" + token.text + "': missing value after '='");
    return true;
  }
  return false;
}

/// Every key a one-line rule of `kind` takes: the rule's own, then the action's parameters.
std::vector<std::string_view> allowed_keys(const action_kind& kind) {
  std::vector<std::string_view> names;
  for (const auto& key : rule_keys()) {
    names.push_back(key.name);
  }
  names.push_back("disabled");
  for (const auto parameter : parameters_of(kind)) {
    if (std::find(names.begin(), names.end(), parameter) == names.end()) {
      names.push_back(parameter);
    }
  }
  return names;
}

/// A scalar as a spec word's value, quoted when it would otherwise read back as something else
/// (a number, a boolean, several words).
std::optional<std::string> spec_value(const json& value) {
  if (value.is_boolean() || value.is_number()) {
    return value.dump();
  }
  if (!value.is_string()) {
    return std::nullopt;
  }
  const auto& text = value.get_ref<const std::string&>();
  return spec_word(text, scalar_from_text(text) != value);
}

/// The words for one field of `match` or `schedule`: a repeatable key once per list item.
bool add_rule_field(std::string& spec, std::string_view section, const std::string& field,
                    const json& value) {
  const rule_key* key = find_rule_field(section, field);
  if (section == "schedule" && field == "per_key" && value == json(true)) {
    spec += " per-key";
    return true;
  }
  const std::string name =
      key != nullptr ? std::string(key->name) : std::string(section) + "." + field;
  if (section == "match" && (field == "query" || field == "headers") && value.is_object()) {
    // {"partNumber": "*", "range": "^bytes="}: `query=NAME[=VALUE]`, `header=NAME[~REGEX]`.
    const std::string joint = field == "query" ? "=" : "~";
    for (const auto& [item, wanted] : value.items()) {
      if (!wanted.is_string()) {
        return false;
      }
      const auto& text = wanted.get_ref<const std::string&>();
      spec += " " + name + "=" + spec_word(text == "*" ? item : item + joint + text);
    }
    return true;
  }
  const bool many = key != nullptr && key->repeatable && value.is_array();
  for (const auto& item : many ? value : json::array({value})) {
    const auto text = spec_value(item);
    if (!text) {
      return false;
    }
    spec += " " + name + "=" + *text;
  }
  return true;
}

/// A positional value's word, quoted where a bare word would read as a flag or a key.
std::optional<std::string> positional_word(const json& value) {
  const auto text = spec_value(value);
  if (!text || !value.is_string()) {
    return text;
  }
  const bool reads_otherwise =
      *text == "per-key" || *text == "disabled" || text->find('=') != std::string::npos;
  return reads_otherwise ? spec_word(value.get_ref<const std::string&>(), true) : *text;
}

/// The action's words as a person types them: its type, its positional values in order for as
/// long as each is given, then the other parameters (`TYPE.PARAM=` where a rule key has the
/// parameter's name).
std::optional<std::string> action_words(const json& action) {
  const action_kind* kind =
      action.is_object() ? find_action_kind(action.value("type", std::string())) : nullptr;
  if (kind == nullptr) {
    return std::nullopt;
  }
  std::string spec(kind->type);
  std::size_t by_position = 0;
  for (; by_position < kind->positional.size(); ++by_position) {
    const auto found = action.find(std::string(kind->positional[by_position]));
    const auto word = found == action.end() ? std::nullopt : positional_word(*found);
    if (!word) {
      break;
    }
    spec += " " + *word;
  }
  const auto written_by_position = [&](const std::string& name) {
    const auto end = kind->positional.begin() + static_cast<std::ptrdiff_t>(by_position);
    return std::find(kind->positional.begin(), end, name) != end;
  };
  for (const auto& [name, value] : action.items()) {
    if (name == "type" || written_by_position(name)) {
      continue;
    }
    const auto text = spec_value(value);
    if (!text) {
      return std::nullopt;
    }
    const bool clashes = find_rule_key(name) != nullptr || name == "disabled" ||
                         name.starts_with("match.") || name.starts_with("schedule.");
    spec += " " + (clashes ? std::string(kind->type) + "." + name : name) + "=" + *text;
  }
  return spec;
}

/// A name the parser made up (rule_parser's default name): a line written back leaves it out,
/// as the person who typed the rule did.
bool is_default_name(const json& name, const json& action) {
  return name.is_string() && is_default_rule_name(name.get_ref<const std::string&>(),
                                                  action.value("type", std::string()));
}

} // namespace

std::optional<std::string> fault_spec_of(const json& definition) {
  if (!definition.is_object() || !definition.contains("actions") ||
      !definition["actions"].is_array() || definition["actions"].size() != 1) {
    return std::nullopt;
  }
  auto spec = action_words(definition["actions"][0]);
  for (const auto& [field, value] : definition.items()) {
    if (!spec || field == "actions" || field == "enabled") {
      continue;
    }
    if (field == "name" && !is_default_name(value, definition["actions"][0])) {
      const auto name = spec_value(value);
      spec = name ? *spec + " name=" + *name : std::optional<std::string>();
    } else if (field == "name") {
      continue; // a name the parser made up, as it will again
    } else if (field != "match" && field != "schedule") {
      spec.reset(); // a field no spec word reaches
    }
  }
  for (const std::string section : {"match", "schedule"}) {
    const auto found = definition.find(section);
    if (!spec || found == definition.end()) {
      continue;
    }
    if (!found->is_object()) {
      return std::nullopt;
    }
    for (const auto& [name, item] : found->items()) {
      if (!add_rule_field(*spec, section, name, item)) {
        return std::nullopt;
      }
    }
  }
  if (spec && definition.value("enabled", true) == false) {
    *spec += " disabled";
  }
  return spec;
}

std::string spec_word(std::string_view text, bool always_quoted) {
  if (!always_quoted && !text.empty() &&
      text.find_first_of(" \t\r\n\"'\\") == std::string_view::npos) {
    return std::string(text);
  }
  std::string quoted = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      quoted += '\\';
    }
    quoted += c;
  }
  return quoted + "\"";
}

std::optional<std::vector<spec_token>> tokenize_spec(std::string_view spec, std::string& error) {
  std::vector<spec_token> tokens;
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  std::size_t i = 0;
  while (true) {
    while (i < spec.size() && blank(spec[i])) {
      ++i;
    }
    if (i >= spec.size()) {
      break;
    }
    spec_token token;
    const std::size_t start = i;
    std::string current;
    bool current_quoted = false;
    while (i < spec.size() && !blank(spec[i])) {
      const char c = spec[i];
      if (c == '\'' || c == '"') {
        const char quote = c;
        current_quoted = true;
        ++i;
        bool closed = false;
        while (i < spec.size()) {
          if (spec[i] == quote) {
            closed = true;
            ++i;
            break;
          }
          // Inside double quotes a backslash keeps the next character (\" and \\).
          if (quote == '"' && spec[i] == '\\' && i + 1 < spec.size()) {
            ++i;
          }
          current += spec[i++];
        }
        if (!closed) {
          error = std::string("unterminated ") + quote + " quote in '" +
                  std::string(spec.substr(start)) + "'";
          return std::nullopt;
        }
        continue;
      }
      if (c == '=' && !token.has_key) {
        token.has_key = true;
        token.key = std::move(current);
        current.clear();
        current_quoted = false;
        ++i;
        continue;
      }
      current += c;
      ++i;
    }
    token.value = std::move(current);
    token.quoted = current_quoted;
    token.text = std::string(spec.substr(start, i - start));
    tokens.push_back(std::move(token));
  }
  return tokens;
}

json token_value(const spec_token& token) {
  if (token.quoted) {
    return token.value;
  }
  return scalar_from_text(token.value);
}

std::string fault_spec_origin(std::string_view spec, std::size_t number) {
  return "--fault " + std::to_string(number) + " ('" + std::string(spec) + "')";
}

const std::vector<std::string_view>& fault_spec_keys() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> all;
    for (const auto& key : rule_keys()) {
      all.push_back(key.name);
    }
    all.push_back("disabled");
    return all;
  }();
  return names;
}

std::optional<json> fault_spec_to_json(std::string_view spec, error_list& errors) {
  std::string tokenize_error;
  const auto tokens = tokenize_spec(spec, tokenize_error);
  if (!tokens) {
    errors.push_back(tokenize_error);
    return std::nullopt;
  }
  const std::size_t errors_before = errors.size();
  action_reader reader(errors);
  const action_kind* kind = reader.read_type(*tokens);
  if (kind == nullptr) {
    return std::nullopt;
  }
  json rule = json::object();
  std::set<std::string> seen; // non-repeatable rule keys already given
  for (std::size_t i = 1; i < tokens->size(); ++i) {
    const spec_token& token = (*tokens)[i];
    if (!token.has_key) {
      if (!token.quoted && token.value == "per-key") {
        rule["schedule"]["per_key"] = true;
      } else if (!token.quoted && token.value == "disabled") {
        rule["enabled"] = false;
      } else {
        reader.add_positional(*kind, token);
      }
      continue;
    }
    if (missing_value(token, errors)) {
      continue;
    }
    // Rule keys come first; an action parameter of the same name (error's `status`, stall's
    // `after`, strip-header's `name`) is given by position or as `ACTION.PARAM=...`, and
    // `match.K=` / `schedule.K=` always reach the rule's own fields.
    const std::string own_prefix = std::string(kind->type) + ".";
    if (token.key.starts_with(own_prefix)) {
      reader.set_parameter(token.key.substr(own_prefix.size()), token);
      continue;
    }
    const bool prefixed = token.key.starts_with("match.") || token.key.starts_with("schedule.");
    const std::size_t dot = token.key.find('.');
    const rule_key* key = prefixed ? find_rule_field(std::string_view(token.key).substr(0, dot),
                                                     std::string_view(token.key).substr(dot + 1))
                                   : find_rule_key(token.key);
    if (key != nullptr || prefixed) {
      const std::string section(key != nullptr ? key->section : token.key.substr(0, dot));
      const std::string name(key != nullptr ? key->field : token.key.substr(dot + 1));
      json& target = section.empty() ? rule[name] : rule[section][name];
      if (key != nullptr && key->repeatable) {
        target.push_back(token_value(token));
      } else if (!seen.insert(section + "." + name).second) {
        errors.push_back("'" + token.key + "' given twice");
      } else {
        target = token_value(token);
      }
      continue;
    }
    const std::string named = action_parameter(*kind, token.key);
    if (named.empty()) {
      errors.push_back("unknown key '" + token.key + "' " +
                       nearest_and_known(token.key, allowed_keys(*kind), "allowed"));
      continue;
    }
    reader.set_parameter(named, token);
  }
  if (errors.size() != errors_before) {
    return std::nullopt;
  }
  rule["actions"] = json::array({std::move(reader.action())});
  return rule;
}

std::optional<json> action_spec_to_json(std::string_view text, error_list& errors) {
  std::string tokenize_error;
  const auto tokens = tokenize_spec(text, tokenize_error);
  if (!tokens) {
    errors.push_back(tokenize_error);
    return std::nullopt;
  }
  const std::size_t errors_before = errors.size();
  action_reader reader(errors);
  const action_kind* kind = reader.read_type(*tokens);
  if (kind == nullptr) {
    return std::nullopt;
  }
  for (std::size_t i = 1; i < tokens->size(); ++i) {
    const spec_token& token = (*tokens)[i];
    if (!token.has_key) {
      reader.add_positional(*kind, token);
      continue;
    }
    if (missing_value(token, errors)) {
      continue;
    }
    const std::string named = action_parameter(*kind, token.key);
    if (named.empty()) {
      const auto allowed = parameters_of(*kind);
      errors.push_back("unknown parameter '" + token.key + "' of '" + std::string(kind->type) +
                       (allowed.empty() ? "' (it takes none)"
                                        : "' " + nearest_and_known(token.key, allowed, "allowed")));
      continue;
    }
    reader.set_parameter(named, token);
  }
  if (errors.size() != errors_before) {
    return std::nullopt;
  }
  return std::move(reader.action());
}

} // namespace s3fault::faults::config
