#pragma once
// The one-line `--fault 'SPEC'` syntax, turned into the same rule JSON a rules file holds:
//
//   ACTION [POSITIONAL...] [key=value ...] [flag ...]
//   strip-header x-amz-mp-parts-count op=GetObject,HeadObject query=partNumber
//   error SlowDown op=GetObject first=2 per-key
//   truncate 50% mode=consistent op=GetObject part=2
//
// Positional values fill the action's positional parameters in order; keys are rule keys
// (name, enabled, op, method, bucket, key, query, header, status, part, covers, p, first, skip,
// every, times, after, until), flags (per-key, disabled) or the action's own parameters. A rule key
// wins over an action parameter of the same name (error's `status`, strip-header's `name`,
// stall's `after`): give those by position or as `ACTION.PARAM=VALUE`; `match.FIELD=` and
// `schedule.FIELD=` reach any rule field. Values with blanks are quoted with '...' or "...";
// a quoted value always stays a string, an unquoted one becomes a number or boolean when it
// reads as one (as in YAML).
#include "faults/action_registry.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::faults::config {

/// One blank-separated word of a spec, quotes removed.
struct spec_token {
  std::string key;   // the part before an unquoted '='; empty for a bare word
  std::string value; // the bare word, or the part after '='
  bool has_key = false;
  bool quoted = false; // some of the value was quoted: it stays a string
  std::string text;    // as written, for messages
};

/// Splits `spec` at unquoted blanks. nullopt (and `error` set) for an unterminated quote.
std::optional<std::vector<spec_token>> tokenize_spec(std::string_view spec, std::string& error);

/// `text` as a spec word's value that the tokenizer gives back unchanged: as is when it has no
/// blanks, quotes or backslashes (and `always_quoted` is false), else in double quotes.
std::string spec_word(std::string_view text, bool always_quoted = false);

/// The JSON value a token's value stands for (see the header comment).
nlohmann::json token_value(const spec_token& token);

/// "--fault N ('SPEC')": what names a spec in error messages; N is 1-based.
std::string fault_spec_origin(std::string_view spec, std::size_t number);

/// A `--fault` spec -> rule JSON {"name"?, "match", "schedule", "actions": [{"type", ...}]}.
/// Syntax mistakes are appended to `errors` without a prefix (the caller adds the origin);
/// values are checked later, by parse_rules, like any rule's.
std::optional<nlohmann::json> fault_spec_to_json(std::string_view spec, error_list& errors);

/// A one-line action "ACTION [POSITIONAL...] [param=value ...]" (the `actions` entries of rule
/// files may be written this way) -> {"type": ACTION, params...}. Rule keys are not allowed here.
std::optional<nlohmann::json> action_spec_to_json(std::string_view text, error_list& errors);

/// A rule's definition (as rule::definition holds it) written back as the `--fault` spec a
/// person would type, which builds the same definition: positional values by position, and no
/// `name=` for a name the parser made up (`throttle 20MiB/s op=GetObject`, not `throttle
/// throttle.rate=20MiB/s name=throttle-1 op=GetObject`); read back under the rule's name (as
/// PUT /rules/NAME does), it is the same rule. nullopt when one line cannot say it: several
/// actions, or a value that is a list or an object where a spec word holds one scalar.
std::optional<std::string> fault_spec_of(const nlohmann::json& definition);

/// The keys a `--fault` spec takes besides action parameters, for help texts and messages.
const std::vector<std::string_view>& fault_spec_keys();

} // namespace s3fault::faults::config
