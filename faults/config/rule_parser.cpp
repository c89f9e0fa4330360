#include "faults/config/rule_parser.hpp"

#include "faults/config/fault_spec.hpp"
#include "faults/config/nearest_known.hpp"
#include "faults/load_schedule.hpp"
#include "faults/values.hpp"
#include "s3_errors/s3_error_codes.hpp"
#include "text/text.hpp"

#include <algorithm>
#include <cctype>

namespace s3fault::faults::config {
namespace {

using nlohmann::json;

std::string field(std::string_view path, std::string_view name) {
  return path.empty() ? std::string(name) : std::string(path) + "." + std::string(name);
}

void fail(error_list& errors, std::string_view path, const std::string& message) {
  errors.push_back(path.empty() ? message : std::string(path) + ": " + message);
}

/// "PATH: must be WHAT (got VALUE)", the wording values.hpp uses, or without "PATH: " at the
/// top of an entry.
std::string problem(std::string_view path, std::string_view what, const json& got) {
  const std::string message = "must be " + std::string(what) + " (got " + describe_got(got) + ")";
  return path.empty() ? message : std::string(path) + ": " + message;
}

/// Every key of `object` must be one of `allowed`.
void check_keys(const json& object, const std::vector<std::string_view>& allowed,
                std::string_view path, error_list& errors) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      fail(errors, field(path, key), "unknown key " + nearest_and_known(key, allowed, "allowed"));
    }
  }
}

// ---- scalar fields ---------------------------------------------------------------------------

/// A string, or a number written where a string was meant (YAML reads `bucket: 2024` as one).
std::optional<std::string> read_text(const json& value, std::string_view path,
                                     std::string_view what, error_list& errors) {
  if (value.is_string()) {
    return value.get<std::string>();
  }
  if (value.is_number()) {
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  errors.push_back(problem(path, what, value));
  return std::nullopt;
}

/// A whole number >= `minimum` by the one rule (faults::whole_number).
std::optional<std::uint64_t> read_whole(const json& value, std::string_view path,
                                        std::uint64_t minimum, error_list& errors) {
  const std::optional<std::uint64_t> number = whole_number(value);
  if (!number || *number < minimum) {
    errors.push_back(problem(path, "a whole number >= " + std::to_string(minimum), value));
    return std::nullopt;
  }
  return number;
}

std::optional<bool> read_flag(const json& value, std::string_view path, error_list& errors) {
  if (value.is_boolean()) {
    return value.get<bool>();
  }
  if (value.is_string() && (value == "true" || value == "false")) {
    return value == "true";
  }
  errors.push_back(problem(path, "true or false", value));
  return std::nullopt;
}

/// A list written as a JSON array and/or comma-separated text: "GetObject,HeadObject",
/// ["GetObject", "HeadObject"] or ["GetObject,HeadObject"].
std::optional<std::vector<std::string>> read_list(const json& value, std::string_view path,
                                                  std::string_view what, error_list& errors) {
  const json items = value.is_array() ? value : json::array({value});
  std::vector<std::string> list;
  for (const auto& item : items) {
    if (!item.is_string() && !item.is_number()) {
      errors.push_back(problem(path, what, value));
      return std::nullopt;
    }
    const std::string text =
        item.is_string() ? item.get<std::string>()
                         : item.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    std::size_t start = 0;
    while (true) {
      const std::size_t comma = text.find(',', start);
      const std::string part{text::trim(std::string_view(text).substr(
          start, comma == std::string::npos ? std::string::npos : comma - start))};
      if (part.empty()) {
        errors.push_back(problem(path, what, value));
        return std::nullopt;
      }
      list.push_back(part);
      if (comma == std::string::npos) {
        break;
      }
      start = comma + 1;
    }
  }
  if (list.empty()) {
    errors.push_back(problem(path, what, value));
    return std::nullopt;
  }
  return list;
}

// ---- match -----------------------------------------------------------------------------------

bool is_token(std::string_view text) {
  static constexpr std::string_view extra = "!#$%&'*+-.^_`|~";
  return !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
           extra.find(c) != std::string_view::npos;
  });
}

// "unknown operation 'X' (nearest: A, B; ...)": the catalogue is too long to list whole.
std::string unknown_operation(std::string_view name) {
  std::vector<std::string_view> known;
  for (const auto& shape : catalogue()) {
    known.push_back(shape.name);
  }
  for (const auto& [set, holds] : operation_sets()) {
    known.push_back(set);
  }
  const std::string nearest = nearest_clause(name, known);
  return "unknown operation '" + std::string(name) + "' (" +
         (nearest.empty() ? "" : nearest + "; ") +
         "'s3fault proxy --list-operations' lists every S3 operation and the sets @multipart, "
         "@read, @write)";
}

/// The operations a name stands for: one, or the members of a set ("@multipart").
std::optional<std::vector<s3_operation>> operations_named(std::string_view name) {
  if (name.starts_with('@')) {
    return operation_set(name);
  }
  if (const auto operation = parse_operation(name)) {
    return std::vector<s3_operation>{*operation};
  }
  return std::nullopt;
}

void read_operations(const json& value, match_spec& match, json& normalized, error_list& errors) {
  const std::string path = "match.operations";
  const auto names =
      read_list(value, path, "operation names like GetObject, or @multipart", errors);
  if (!names) {
    return;
  }
  for (const auto& name : names.value()) {
    const auto operations = operations_named(name);
    if (!operations) {
      fail(errors, path, unknown_operation(name));
      continue;
    }
    for (const auto operation : *operations) {
      if (std::find(match.operations.begin(), match.operations.end(), operation) ==
          match.operations.end()) {
        match.operations.push_back(operation);
        normalized.push_back(operation_name(operation));
      }
    }
  }
}

void read_methods(const json& value, match_spec& match, json& normalized, error_list& errors) {
  const std::string path = "match.methods";
  const auto names = read_list(value, path, "HTTP methods like GET", errors);
  if (!names) {
    return;
  }
  for (const auto& written : names.value()) {
    const std::string name = text::ascii_upper(written);
    if (!std::all_of(name.begin(), name.end(),
                     [](char c) { return (c >= 'A' && c <= 'Z') || c == '-'; })) {
      fail(errors, path, "'" + name + "' is not an HTTP method");
      continue;
    }
    if (std::find(match.methods.begin(), match.methods.end(), name) == match.methods.end()) {
      match.methods.push_back(name);
      normalized.push_back(name);
    }
  }
}

/// Query conditions: {"partNumber": 1, "uploadId": "*"} or ["partNumber=1", "uploadId"].
void read_query(const json& value, match_spec& match, json& normalized, error_list& errors) {
  const std::string path = "match.query";
  const auto add = [&](const std::string& name, std::optional<std::string> wanted,
                       const std::string& where) {
    if (name.empty()) {
      fail(errors, where, "a query parameter needs a name");
      return;
    }
    if (normalized.contains(name)) {
      fail(errors, path, "'" + name + "' given twice");
      return;
    }
    if (wanted && *wanted == "*") {
      wanted.reset();
    }
    normalized[name] = wanted ? *wanted : "*";
    match.query.push_back({name, std::move(wanted)});
  };
  if (value.is_object()) {
    for (const auto& [name, wanted] : value.items()) {
      const std::string where = field(path, name);
      if (wanted.is_null()) {
        add(name, std::nullopt, where);
      } else if (wanted.is_string() || wanted.is_number() || wanted.is_boolean()) {
        add(name,
            wanted.is_string()
                ? wanted.get<std::string>()
                : wanted.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
            where);
      } else {
        errors.push_back(problem(where, "a value, or \"*\" for any value", wanted));
      }
    }
    return;
  }
  const json items = value.is_array() ? value : json::array({value});
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string where = path + "[" + std::to_string(i + 1) + "]";
    if (!items[i].is_string()) {
      errors.push_back(problem(where, "\"name\" or \"name=value\"", items[i]));
      continue;
    }
    const std::string text = items[i].get<std::string>();
    const std::size_t equals = text.find('=');
    if (equals == std::string::npos) {
      add(text, std::nullopt, where);
    } else {
      add(text.substr(0, equals), text.substr(equals + 1), where);
    }
  }
}

/// Header conditions: {"x-amz-checksum-mode": "enabled", "range": "*"} or
/// ["range", "x-amz-checksum-mode~^enabled$"]; patterns are RE2 regexes searched in the value
/// (faults/header_regex.hpp).
void read_headers(const json& value, match_spec& match, json& normalized, error_list& errors) {
  const std::string path = "match.headers";
  const auto add = [&](const std::string& raw_name, std::string pattern) {
    const std::string name = text::ascii_lower(raw_name);
    if (!is_token(name)) {
      fail(errors, path, "'" + raw_name + "' is not a header name");
      return;
    }
    const std::string where = field(path, name);
    if (normalized.contains(name)) {
      fail(errors, path, "'" + name + "' given twice");
      return;
    }
    if (pattern == "*") {
      pattern.clear();
    }
    header_condition condition{name, pattern, nullptr};
    if (!pattern.empty()) {
      std::string why;
      condition.regex = header_regex::compile(pattern, why);
      if (!condition.regex) {
        fail(errors, where, "regex '" + shortened(pattern) + "' " + why);
        return;
      }
    }
    normalized[name] = pattern.empty() ? "*" : pattern;
    match.headers.push_back(std::move(condition));
  };
  if (value.is_object()) {
    for (const auto& [name, pattern] : value.items()) {
      if (pattern.is_null()) {
        add(name, "");
      } else if (pattern.is_string() || pattern.is_number()) {
        add(name, pattern.is_string()
                      ? pattern.get<std::string>()
                      : pattern.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
      } else {
        errors.push_back(problem(field(path, name), "a regex, or \"*\" for any value", pattern));
      }
    }
    return;
  }
  const json items = value.is_array() ? value : json::array({value});
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!items[i].is_string()) {
      errors.push_back(problem(path + "[" + std::to_string(i + 1) + "]",
                               "\"name\" or \"name~regex\"", items[i]));
      continue;
    }
    const std::string text = items[i].get<std::string>();
    const std::size_t tilde = text.find('~');
    add(text.substr(0, tilde), tilde == std::string::npos ? "" : text.substr(tilde + 1));
  }
}

/// Response statuses: 503, "503", "5xx", "500,503" or a list of them.
void read_statuses(const json& value, match_spec& match, json& normalized, error_list& errors) {
  const std::string path = "match.status";
  const std::string what = "status codes 100..599 or classes like 5xx";
  // A status is a whole number: 503.0 (as YAML or a JSON encoder may write it) is 503.
  json statuses = value;
  const auto as_integer = [](json& item) {
    if (item.is_number_float()) {
      if (const auto number = whole_number(item)) {
        item = *number;
      }
    }
  };
  if (statuses.is_array()) {
    std::for_each(statuses.begin(), statuses.end(), as_integer);
  } else {
    as_integer(statuses);
  }
  const auto items = read_list(statuses, path, what, errors);
  if (!items) {
    return;
  }
  for (const auto& item : items.value()) {
    const std::string text = text::ascii_lower(item);
    const auto status = text::parse_whole_number<unsigned>(text);
    if (status && *status >= 100 && *status <= 599) {
      match.statuses.push_back(*status);
      normalized.push_back(*status);
    } else if (text.size() == 3 && text[0] >= '1' && text[0] <= '5' && text.substr(1) == "xx") {
      const unsigned first = static_cast<unsigned>(text[0] - '0') * 100;
      for (unsigned status = first; status < first + 100; ++status) {
        match.statuses.push_back(status);
      }
      normalized.push_back(text);
    } else {
      errors.push_back(problem(path, what, item));
    }
  }
}

/// A part number or an inclusive range: 2, "2", "1-3".
void read_part(const json& value, match_spec& match, json& normalized, error_list& errors) {
  const std::string path = "match.part";
  const std::string what = "a part number 1..10000 or a range like \"1-3\"";
  const auto number = value.is_number() ? whole_number(value) : std::nullopt;
  const std::string text =
      number ? std::to_string(*number) : (value.is_string() ? value.get<std::string>() : "");
  const std::size_t dash = text.find('-');
  const std::string low{text::trim(std::string_view(text).substr(0, dash))};
  const std::string high = dash == std::string::npos
                               ? low
                               : std::string(text::trim(std::string_view(text).substr(dash + 1)));
  const auto part_number = [](const std::string& digits) -> std::optional<std::uint32_t> {
    const auto number = text::parse_whole_number<std::uint32_t>(digits);
    return number && *number >= 1 && *number <= 10000 ? number : std::nullopt;
  };
  const auto low_number = part_number(low);
  const auto high_number = part_number(high);
  if (!low_number || !high_number) {
    errors.push_back(problem(path, what, value));
    return;
  }
  const std::uint32_t first = *low_number;
  const std::uint32_t last = *high_number;
  if (first > last) {
    errors.push_back(problem(path, "a range from low to high", value));
    return;
  }
  match.part_numbers = std::make_pair(first, last);
  normalized =
      first == last ? std::to_string(first) : std::to_string(first) + "-" + std::to_string(last);
}

/// A byte offset of the object: 12582912, "12MiB".
void read_covers(const json& value, match_spec& match, json& normalized, error_list& errors) {
  const auto offset = parse_size(value);
  if (!offset) {
    errors.push_back(problem("match.covers", "a byte offset like 12MiB or 12582912", value));
    return;
  }
  match.covers = *offset;
  normalized = *offset;
}

void read_match(const json& value, match_spec& match, json& normalized, error_list& errors) {
  if (!value.is_object()) {
    errors.push_back(problem("match", "an object", value));
    return;
  }
  check_keys(
      value,
      {"operations", "methods", "bucket", "key", "query", "headers", "status", "part", "covers"},
      "match", errors);
  normalized = json::object();
  if (value.contains("operations")) {
    read_operations(value["operations"], match, normalized["operations"], errors);
  }
  if (value.contains("methods")) {
    read_methods(value["methods"], match, normalized["methods"], errors);
  }
  for (const std::string_view name : {"bucket", "key"}) {
    const std::string key(name);
    if (!value.contains(key)) {
      continue;
    }
    auto glob = read_text(value[key], field("match", name), "a glob like \"data-*\"", errors);
    if (glob) {
      (name == "bucket" ? match.bucket : match.key) = *glob;
      if (*glob != "*") {
        normalized[key] = *glob;
      }
    }
  }
  if (value.contains("query")) {
    read_query(value["query"], match, normalized["query"], errors);
  }
  if (value.contains("headers")) {
    read_headers(value["headers"], match, normalized["headers"], errors);
  }
  if (value.contains("status")) {
    read_statuses(value["status"], match, normalized["status"], errors);
  }
  if (value.contains("part")) {
    read_part(value["part"], match, normalized["part"], errors);
  }
  if (value.contains("covers")) {
    read_covers(value["covers"], match, normalized["covers"], errors);
  }
  // Fields that ended up empty (after an error) are left out.
  for (auto it = normalized.begin(); it != normalized.end();) {
    it = it->is_null() ? normalized.erase(it) : std::next(it);
  }
}

// ---- schedule --------------------------------------------------------------------------------

std::optional<std::chrono::milliseconds> read_time(const json& value, std::string_view path,
                                                   error_list& errors) {
  const auto duration = parse_duration(value);
  if (!duration) {
    errors.push_back(problem(path, duration_example, value));
    return std::nullopt;
  }
  return std::chrono::duration_cast<std::chrono::milliseconds>(*duration);
}

// The limits keep a rate's timing in whole nanoseconds within 64 bits (load_schedule.hpp).
constexpr double min_request_rate = 0.001;
constexpr double max_request_rate = 1e6;
constexpr double max_burst = 1e6;

/// The load-shaped fields: in_flight_over, rate, burst, rate_per, min_body.
void read_load_schedule(const json& value, schedule_spec& schedule, json& normalized,
                        error_list& errors) {
  if (value.contains("in_flight_over")) {
    schedule.in_flight_over =
        read_whole(value["in_flight_over"], "schedule.in_flight_over", 1, errors);
    if (schedule.in_flight_over) {
      normalized["in_flight_over"] = *schedule.in_flight_over;
    }
  }
  if (value.contains("rate")) {
    const json& given = value["rate"];
    const auto rate = parse_request_rate(given);
    if (!rate || *rate < min_request_rate || *rate > max_request_rate) {
      std::string what = "requests per second from 0.001 to 1000000, like 100 or 0.5";
      if (!rate && given.is_string() && parse_rate(given)) {
        // `throttle rate=1MiB/s` on one line: the rule key wins over the action's parameter.
        what += "; a byte rate of throttle or request-throttle goes by position or as "
                "throttle.rate=...";
      }
      errors.push_back(problem("schedule.rate", what, given));
    } else {
      schedule.rate = *rate;
      normalized["rate"] = *rate;
    }
  }
  const bool has_rate = value.contains("rate");
  if (value.contains("burst")) {
    const json& given = value["burst"];
    // A plain number: what a rate is without its "/s".
    const bool per_second =
        given.is_string() && given.get<std::string>().find('/') != std::string::npos;
    const auto burst = per_second ? std::nullopt : parse_request_rate(given);
    if (!burst || *burst < 1 || *burst > max_burst) {
      errors.push_back(problem("schedule.burst", "a number of requests from 1 to 1000000", given));
    } else if (!has_rate) {
      fail(errors, "schedule.burst", "needs schedule.rate (the rate that refills the bucket)");
    } else {
      schedule.burst = *burst;
    }
  }
  if (value.contains("rate_per")) {
    const json& given = value["rate_per"];
    const auto scope =
        given.is_string() ? parse_rate_scope(given.get<std::string>()) : std::nullopt;
    if (!scope) {
      const std::string near =
          given.is_string() ? nearest_clause(given.get<std::string>(), {"rule", "prefix", "key"})
                            : "";
      std::string message = problem("schedule.rate_per", "rule, prefix or key", given);
      errors.push_back(near.empty() ? message : message.insert(message.size() - 1, "; " + near));
    } else if (!has_rate) {
      fail(errors, "schedule.rate_per", "needs schedule.rate (the rate it divides)");
    } else {
      schedule.rate_per = *scope;
      if (*scope != rate_scope::rule) {
        normalized["rate_per"] = rate_scope_name(*scope);
      }
    }
  }
  if (schedule.burst && schedule.rate && *schedule.burst != std::max(1.0, *schedule.rate)) {
    normalized["burst"] = *schedule.burst; // a default burst is left out
  }
  if (value.contains("min_body")) {
    const json& given = value["min_body"];
    const auto size = parse_size(given);
    if (!size) {
      errors.push_back(problem("schedule.min_body", size_example, given));
    } else if (!value.contains("in_flight_over") && !has_rate) {
      fail(errors, "schedule.min_body",
           "needs schedule.in_flight_over or schedule.rate (it picks the requests that take part "
           "in them)");
    } else if (*size > 0) {
      schedule.min_body = *size;
      normalized["min_body"] = *size;
    }
  }
}

void read_schedule(const json& value, schedule_spec& schedule, json& normalized,
                   error_list& errors) {
  if (!value.is_object()) {
    errors.push_back(problem("schedule", "an object", value));
    return;
  }
  check_keys(value,
             {"probability", "first", "skip", "every", "times", "per_key", "after", "until",
              "in_flight_over", "rate", "burst", "rate_per", "min_body"},
             "schedule", errors);
  normalized = json::object();
  if (value.contains("probability")) {
    const auto& given = value["probability"];
    const auto fraction = parse_fraction(given);
    if (!fraction || *fraction < 0 || *fraction > 1) {
      errors.push_back(problem("schedule.probability", fraction_example, given));
    } else {
      schedule.probability = *fraction;
      if (*fraction < 1) {
        normalized["probability"] = *fraction;
      }
    }
  }
  const auto count = [&](const char* name, std::uint64_t minimum) -> std::optional<std::uint64_t> {
    if (!value.contains(name)) {
      return std::nullopt;
    }
    auto number = read_whole(value[name], field("schedule", name), minimum, errors);
    if (number && (minimum > 0 || *number > 0)) {
      normalized[name] = *number;
    }
    return number;
  };
  schedule.first = count("first", 1);
  schedule.skip = count("skip", 0).value_or(0);
  schedule.every = count("every", 1);
  schedule.times = count("times", 1);
  if (value.contains("per_key")) {
    schedule.per_key = read_flag(value["per_key"], "schedule.per_key", errors).value_or(false);
    if (schedule.per_key) {
      normalized["per_key"] = true;
    }
  }
  if (value.contains("after")) {
    schedule.after = read_time(value["after"], "schedule.after", errors);
    if (schedule.after) {
      normalized["after"] = format_duration(*schedule.after);
    }
  }
  if (value.contains("until")) {
    schedule.until = read_time(value["until"], "schedule.until", errors);
    if (schedule.until) {
      normalized["until"] = format_duration(*schedule.until);
    }
  }
  if (schedule.after && schedule.until && *schedule.until <= *schedule.after) {
    errors.push_back(problem("schedule.until",
                             "later than schedule.after (" + format_duration(*schedule.after) + ")",
                             value["until"]));
  }
  read_load_schedule(value, schedule, normalized, errors);
}

// ---- actions ---------------------------------------------------------------------------------

/// {ACTION: VALUE, param: ...}: VALUE fills the positional parameters (one, or a list of
/// them) or is an object of parameters.
std::optional<json> short_form_action(const json& entry, const action_kind& kind,
                                      error_list& errors) {
  const std::string type(kind.type);
  json action = json::object({{"type", type}});
  const auto set = [&](const std::string& name, const json& parameter) {
    if (action.contains(name)) {
      errors.push_back("'" + name + "' given twice");
      return;
    }
    action[name] = parameter;
  };
  const json& value = entry[type];
  if (value.is_object()) {
    for (const auto& [name, parameter] : value.items()) {
      set(name, parameter);
    }
  } else if (!value.is_null()) {
    const json positional = value.is_array() ? value : json::array({value});
    if (positional.size() > kind.positional.size()) {
      const std::string takes = kind.positional.empty()
                                    ? "takes no positional values"
                                    : "takes " + std::to_string(kind.positional.size()) +
                                          " positional value" +
                                          (kind.positional.size() == 1 ? "" : "s") + " (" +
                                          join_names(kind.positional) + ")";
      errors.push_back("'" + type + "' " + takes + " (got " + describe_got(value) + ")");
      return std::nullopt;
    }
    for (std::size_t i = 0; i < positional.size(); ++i) {
      set(std::string(kind.positional[i]), positional[i]);
    }
  }
  for (const auto& [name, parameter] : entry.items()) {
    if (name != type) {
      set(name, parameter);
    }
  }
  return action;
}

/// The type of an actions entry without validating it, for default names ("" when unclear).
std::string peek_action_type(const json& entry) {
  if (entry.is_string()) {
    const std::string text{text::trim(entry.get<std::string>())};
    return text.substr(0, text.find_first_of(" \t"));
  }
  if (entry.is_object()) {
    if (entry.contains("type") && entry["type"].is_string()) {
      return entry["type"].get<std::string>();
    }
    for (const auto& [key, value] : entry.items()) {
      if (find_action_kind(key) != nullptr) {
        return key;
      }
    }
  }
  return {};
}

/// `message` with "NEAR; " put after its first "(" when NEAR is not empty.
std::string insert_nearest(const std::string& message, std::size_t open, const std::string& near) {
  return near.empty() ? message : message.substr(0, open) + near + "; " + message.substr(open);
}

/// An action's messages about a name it does not know, with the known names nearest to it
/// first: "jiter: unknown parameter (nearest: jitter; delay takes duration, jitter)", "code:
/// unknown S3 error code "SlowDwn" (nearest: SlowDown; give a status with it, ...)", "mode: must
/// be one of close, consistent, length-only (got "clse"; nearest: close)".
std::string with_nearest_parameter(const std::string& message, const action_kind& kind) {
  constexpr std::string_view parameter = ": unknown parameter (";
  if (const auto at = message.find(parameter); at != std::string::npos) {
    return insert_nearest(message, at + parameter.size(),
                          nearest_clause(message.substr(0, at), kind.parameters));
  }
  constexpr std::string_view code = "code: unknown S3 error code \"";
  const auto quote = message.find('"', code.size());
  const auto open = message.find(" (", quote == std::string::npos ? message.size() : quote);
  if (message.starts_with(code) && open != std::string::npos) {
    std::vector<std::string_view> known;
    for (const auto& each : ::s3fault::s3_errors::s3_error_codes()) {
      known.push_back(each.code);
    }
    const std::string written = message.substr(code.size(), quote - code.size());
    return insert_nearest(message, open + 2, nearest_clause(written, known));
  }
  // "mode: must be one of close, consistent, length-only (got "clse")"
  constexpr std::string_view one_of = ": must be one of ";
  constexpr std::string_view got = " (got \"";
  const auto list = message.find(one_of);
  const auto written = message.find(got, list == std::string::npos ? message.size() : list);
  if (list != std::string::npos && written != std::string::npos && message.ends_with("\")")) {
    std::vector<std::string_view> choices;
    std::string_view rest =
        std::string_view(message).substr(list + one_of.size(), written - list - one_of.size());
    while (!rest.empty()) {
      const auto comma = rest.find(", ");
      choices.push_back(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 2);
    }
    const auto value = std::string_view(message).substr(written + got.size(),
                                                        message.size() - 2 - written - got.size());
    const std::string near = nearest_clause(value, choices);
    return near.empty() ? message : message.substr(0, message.size() - 1) + "; " + near + ")";
  }
  return message;
}

void read_actions(const json& value, rule& r, json& normalized, error_list& errors) {
  const json entries = value.is_array() ? value : json::array({value});
  if (entries.empty()) {
    fail(errors, "actions", "at least one action is required");
    return;
  }
  normalized = json::array();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string where = "actions[" + std::to_string(i + 1) + "]";
    error_list entry_errors;
    const auto action = normalize_action_entry(entries[i], entry_errors);
    for (const auto& message : entry_errors) {
      fail(errors, where, message);
    }
    if (!action) {
      continue;
    }
    const std::string type = action->at("type").get<std::string>();
    const action_kind* kind = find_action_kind(type);
    error_list parameter_errors;
    auto built = kind->parse(*action, parameter_errors);
    for (const auto& message : parameter_errors) {
      errors.push_back(type + "." + with_nearest_parameter(message, *kind));
    }
    if (!built) {
      if (parameter_errors.empty()) {
        fail(errors, type, "invalid parameters");
      }
      continue;
    }
    normalized.push_back(built->to_json());
    r.actions.push_back(std::move(built));
  }
}

// ---- one rule --------------------------------------------------------------------------------

bool valid_name(std::string_view name) {
  const auto name_char = [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == '-';
  };
  return !name.empty() && name.size() <= 64 &&
         std::isalnum(static_cast<unsigned char>(name.front())) != 0 &&
         std::all_of(name.begin(), name.end(), name_char);
}

std::string default_name(const json& definition, std::size_t position) {
  std::string type;
  if (definition.is_object() && definition.contains("actions")) {
    const json& actions = definition["actions"];
    if (actions.is_array() && !actions.empty()) {
      type = peek_action_type(actions.front());
    } else if (!actions.is_array()) {
      type = peek_action_type(actions);
    }
  }
  if (type.empty() || find_action_kind(type) == nullptr) {
    type = "rule";
  }
  return type + "-" + std::to_string(position);
}

/// A list of audit check ids (`part.status`), as a profile's rules name what they reproduce.
std::vector<std::string> read_check_ids(const json& value, const std::string& path,
                                        error_list& errors) {
  constexpr std::string_view what = "a list of audit check ids like part.status";
  std::vector<std::string> ids;
  if (!value.is_array()) {
    errors.push_back(problem(path, what, value));
    return ids;
  }
  for (std::size_t i = 0; i < value.size(); ++i) {
    const json& id = value[i];
    const bool valid = id.is_string() && !id.get<std::string>().empty() &&
                       std::all_of(id.get_ref<const std::string&>().begin(),
                                   id.get_ref<const std::string&>().end(), [](char c) {
                                     return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                                            c == '.' || c == '-';
                                   });
    if (!valid) {
      errors.push_back(
          problem(path + "[" + std::to_string(i) + "]", "an audit check id like part.status", id));
    } else {
      ids.push_back(id.get<std::string>());
    }
  }
  return ids;
}

/// Validates one definition; `name` is the given or default name.
std::optional<rule> read_rule(const json& definition, const std::string& name, error_list& errors) {
  if (!definition.is_object()) {
    errors.push_back(problem("", "a rule: an object with match, schedule and actions", definition));
    return std::nullopt;
  }
  check_keys(definition, {"name", "enabled", "match", "schedule", "actions", "reproduces"}, "",
             errors);
  rule r;
  r.name = name;
  if (definition.contains("name") && (!definition["name"].is_string() || !valid_name(name))) {
    errors.push_back(problem("name",
                             "1 to 64 letters, digits, '.', '_' or '-', starting with a letter "
                             "or digit",
                             definition["name"]));
  }
  if (definition.contains("enabled")) {
    r.enabled = read_flag(definition["enabled"], "enabled", errors).value_or(true);
  }
  json match = json::object();
  if (definition.contains("match")) {
    read_match(definition["match"], r.match, match, errors);
  }
  json schedule = json::object();
  if (definition.contains("schedule")) {
    read_schedule(definition["schedule"], r.schedule, schedule, errors);
  }
  json actions;
  if (!definition.contains("actions")) {
    fail(errors, "actions", "missing (at least one action is required)");
  } else {
    read_actions(definition["actions"], r, actions, errors);
  }
  // Actions that act only on some requests (head-as-get: HEADs) refuse a match that takes none.
  for (const auto& action : r.actions) {
    auto refusal = action->refuse_match(r.match);
    if (refusal && std::find(errors.begin(), errors.end(), *refusal) == errors.end()) {
      errors.push_back(std::move(*refusal));
    }
  }
  // Rules that name response statuses are decided once the store has answered: too late for
  // actions that work before the store or on the request body.
  if (!r.match.statuses.empty()) {
    for (const auto& action : r.actions) {
      if (action->phase() == action_phase::before_store ||
          action->phase() == action_phase::request_head ||
          action->phase() == action_phase::request_body) {
        fail(errors, "match.status",
             "'" + std::string(action->type()) +
                 "' acts before the store answers, so its rule cannot wait for a response status");
        break;
      }
    }
    // Admission is decided before the store sees the request; a status comes after it.
    if (r.schedule.in_flight_over) {
      fail(errors, "schedule.in_flight_over",
           "admits or refuses an exchange before the store sees it, so its rule cannot wait for "
           "a response status (match.status)");
    }
  }
  const auto reproduces = definition.contains("reproduces")
                              ? read_check_ids(definition["reproduces"], "reproduces", errors)
                              : std::vector<std::string>{};
  if (!errors.empty()) {
    return std::nullopt;
  }
  r.definition = {{"name", r.name},
                  {"enabled", r.enabled},
                  {"match", match},
                  {"schedule", schedule},
                  {"actions", actions}};
  if (!reproduces.empty()) {
    r.definition["reproduces"] = reproduces;
  }
  return r;
}

/// What names the entry in front of a message: its origin, or "FILE:LINE" with the `line` of
/// the field concerned when it has field lines; then "rule N (NAME)" when it is numbered.
std::string entry_label(const rule_entry& entry, const std::string& name, std::size_t line) {
  std::string place = entry.origin;
  if (!entry.file.empty()) {
    place =
        entry.file + ":" + std::to_string(line) + (entry.label.empty() ? "" : ": ") + entry.label;
  }
  if (entry.number == 0) {
    return place;
  }
  const std::string label = "rule " + std::to_string(entry.number) + " (" + name + ")";
  return place.empty() ? label : place + ": " + label;
}

/// The field a message names first ("match.operations: unknown ..." -> "match.operations");
/// empty when it starts with no path.
std::string message_path(std::string_view message) {
  const auto colon = message.find(": ");
  const std::string_view path = message.substr(0, colon);
  const bool is_path = colon != std::string_view::npos && !path.empty() &&
                       std::all_of(path.begin(), path.end(), [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) != 0 ||
                                std::string_view("._-[]").find(c) != std::string_view::npos;
                       });
  return is_path ? std::string(path) : std::string();
}

/// "actions[I]" of the first action of `type` in `definition`; empty when it has none.
std::string action_path(const json& definition, std::string_view type) {
  if (!definition.is_object() || !definition.contains("actions")) {
    return {};
  }
  const json& actions = definition["actions"];
  const json entries = actions.is_array() ? actions : json::array({actions});
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (peek_action_type(entries[i]) == type) {
      return "actions[" + std::to_string(i + 1) + "]";
    }
  }
  return {};
}

/// The line of the field `path` names, or of the nearest field around it that has one, or of
/// the entry. An action's parameters are named by its type ("truncate.mode"): they are looked up
/// in the first action of that type ("actions[2].mode").
std::size_t field_line(const rule_entry& entry, std::string path) {
  const auto entry_line = entry.field_lines.find("");
  const std::size_t fallback = entry_line == entry.field_lines.end() ? 0 : entry_line->second;
  if (entry.field_lines.count(path) == 0) {
    const auto dot = path.find('.');
    const std::string first = path.substr(0, dot);
    if (dot != std::string::npos && find_action_kind(first) != nullptr) {
      const std::string action = action_path(entry.definition, first);
      if (!action.empty()) {
        path = action + path.substr(dot);
      }
    }
  }
  while (!path.empty()) {
    if (const auto found = entry.field_lines.find(path); found != entry.field_lines.end()) {
      return found->second;
    }
    const auto last = path.find_last_of(".[");
    path = last == std::string::npos ? std::string() : path.substr(0, last);
  }
  return fallback;
}

} // namespace

std::optional<json> normalize_action_entry(const json& entry, error_list& errors) {
  if (entry.is_string()) {
    return action_spec_to_json(entry.get<std::string>(), errors);
  }
  if (!entry.is_object()) {
    errors.push_back(
        problem("", "an action: {type: ACTION, ...}, {ACTION: VALUE} or \"ACTION VALUE key=value\"",
                entry));
    return std::nullopt;
  }
  if (entry.contains("type")) {
    const json& type = entry["type"];
    if (!type.is_string()) {
      errors.push_back(problem("type", "an action type (" + known_action_list() + ")", type));
      return std::nullopt;
    }
    if (find_action_kind(type.get<std::string>()) == nullptr) {
      errors.push_back(unknown_action(type.get<std::string>()));
      return std::nullopt;
    }
    return entry;
  }
  std::vector<std::string> named;
  for (const auto& [key, value] : entry.items()) {
    if (find_action_kind(key) != nullptr) {
      named.push_back(key);
    }
  }
  if (named.empty()) {
    if (entry.size() == 1) {
      errors.push_back(unknown_action(entry.begin().key()));
    } else {
      errors.push_back("needs \"type\" or an action name as key (known: " + known_action_list() +
                       ")");
    }
    return std::nullopt;
  }
  if (named.size() > 1) {
    errors.push_back("names more than one action ('" + named[0] + "', '" + named[1] +
                     "'): give each its own entry");
    return std::nullopt;
  }
  return short_form_action(entry, *find_action_kind(named.front()), errors);
}

rule_build parse_rules(const std::vector<rule_entry>& entries) {
  rule_build build;
  struct named_rule {
    std::string name;
    std::string label;
  };
  std::vector<named_rule> names;
  std::vector<rule> rules;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const rule_entry& entry = entries[i];
    const json& definition = entry.definition;
    const bool named =
        definition.is_object() && definition.contains("name") && definition["name"].is_string();
    const std::string name =
        named ? definition["name"].get<std::string>() : default_name(definition, i + 1);
    const std::string label = entry_label(entry, name, field_line(entry, ""));
    error_list errors;
    auto parsed = read_rule(definition, name, errors);
    const auto twin = std::find_if(names.begin(), names.end(),
                                   [&](const named_rule& other) { return other.name == name; });
    if (twin != names.end()) {
      errors.push_back("name: '" + name + "' is already used by " + twin->label +
                       (named ? "" : " (this is the default name: give the rule a name)"));
    } else {
      names.push_back({name, label});
    }
    for (const auto& message : errors) {
      build.errors.push_back(entry_label(entry, name, field_line(entry, message_path(message))) +
                             ": " + message);
    }
    if (parsed && errors.empty()) {
      rules.push_back(std::move(*parsed));
    }
  }
  if (build.errors.empty()) {
    build.rules = std::move(rules);
  }
  return build;
}

field_line_map field_lines_under(const field_line_map& lines, const std::string& path) {
  field_line_map under;
  for (auto it = lines.lower_bound(path); it != lines.end() && it->first.starts_with(path); ++it) {
    const std::string rest = it->first.substr(path.size());
    if (rest.empty()) {
      under.emplace("", it->second);
    } else if (rest.front() == '.') {
      under.emplace(rest.substr(1), it->second);
    } else if (rest.front() == '[') {
      under.emplace(rest, it->second);
    }
  }
  return under;
}

rule_document read_rule_document(const json& document, const std::string& origin,
                                 error_list& errors, const field_line_map& lines) {
  rule_document result;
  const std::string prefix = origin.empty() ? "" : origin + ": ";
  // A document-level message names the line of the key it is about, when the file gives one.
  const auto place_of = [&](const std::string& message) {
    const auto line = lines.find(message_path(message));
    return line == lines.end() || line->second == 0 || origin.empty()
               ? prefix
               : origin + ":" + std::to_string(line->second) + ": ";
  };
  const json* rules = nullptr;
  if (document.is_array()) {
    rules = &document;
  } else if (document.is_object()) {
    error_list document_errors;
    check_keys(document, {"seed", "rules", "profile"}, "", document_errors);
    if (document.contains("profile")) {
      result.profile = document["profile"];
    }
    if (document.contains("seed")) {
      result.seed = read_whole(document["seed"], "seed", 0, document_errors);
    }
    if (!document.contains("rules")) {
      fail(document_errors, "rules", "missing (a list of rules)");
    } else if (!document["rules"].is_array()) {
      document_errors.push_back(problem("rules", "a list of rules", document["rules"]));
    } else {
      rules = &document["rules"];
    }
    for (const auto& message : document_errors) {
      errors.push_back(place_of(message) + message);
    }
  } else {
    errors.push_back(prefix +
                     problem("", "an object with \"rules\" (and optionally \"seed\")", document));
  }
  if (rules == nullptr) {
    return result;
  }
  const std::string list = document.is_array() ? "" : "rules";
  for (std::size_t i = 0; i < rules->size(); ++i) {
    rule_entry entry;
    entry.definition = (*rules)[i];
    entry.origin = origin;
    entry.number = i + 1;
    field_line_map rule_lines = field_lines_under(lines, list + "[" + std::to_string(i + 1) + "]");
    const auto rule_line = rule_lines.find("");
    if (rule_line != rule_lines.end() && rule_line->second > 0) {
      entry.origin += ":" + std::to_string(rule_line->second);
      entry.file = origin;
      entry.field_lines = std::move(rule_lines);
    }
    result.entries.push_back(std::move(entry));
  }
  return result;
}

bool is_default_rule_name(std::string_view name, std::string_view action_type) {
  const std::string prefix = std::string(action_type) + "-"; // as default_name writes it
  return name.size() > prefix.size() && name.starts_with(prefix) &&
         std::all_of(name.begin() + static_cast<std::ptrdiff_t>(prefix.size()), name.end(),
                     [](char c) { return c >= '0' && c <= '9'; });
}

rule_build parse_rule_document(const json& document, const std::string& origin) {
  error_list errors;
  rule_document parts = read_rule_document(document, origin, errors);
  rule_build build = parse_rules(parts.entries);
  build.seed = parts.seed;
  errors.insert(errors.end(), build.errors.begin(), build.errors.end());
  build.errors = std::move(errors);
  if (!build.errors.empty()) {
    build.rules.clear();
  }
  return build;
}

} // namespace s3fault::faults::config
