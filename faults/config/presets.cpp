#include "faults/config/presets.hpp"

#include "faults/action_registry.hpp"
#include "faults/config/fault_spec.hpp"
#include "faults/config/nearest_known.hpp"

#include <algorithm>
#include <map>

namespace s3fault::faults::config {
namespace {

using nlohmann::json;

/// Replaces every {NAME} in `spec` with the spec token of that parameter's value.
std::string fill_placeholders(std::string_view spec,
                              const std::map<std::string, std::string, std::less<>>& values) {
  std::string filled;
  std::size_t i = 0;
  while (i < spec.size()) {
    const std::size_t open = spec.find('{', i);
    const std::size_t close = open == std::string_view::npos ? open : spec.find('}', open);
    if (close == std::string_view::npos) {
      filled += spec.substr(i);
      break;
    }
    filled += spec.substr(i, open - i);
    const auto found = values.find(spec.substr(open + 1, close - open - 1));
    filled += found == values.end() ? "" : spec_word(found->second);
    i = close + 1;
  }
  return filled;
}

} // namespace

const std::vector<preset>& presets() {
  static const std::vector<preset> all = {
      {"rustfs-parts-count",
       "Removes x-amz-mp-parts-count from GetObject and HeadObject responses to partNumber "
       "requests (the only ones that carry it), as RustFS did. The "
       "header tells a part-wise reader how many parts a multipart object has; a reader that "
       "trusts it and takes a missing count to mean \"one part\" reads part 1 only and returns a "
       "silently truncated object. A robust reader takes the total size from Content-Range and "
       "fetches whatever its part reads did not cover.",
       {"strip-header x-amz-mp-parts-count op=GetObject,HeadObject query=partNumber"},
       {}},
      {"slowdown-storm",
       "Answers a share of all requests (default 50%) with 503 SlowDown before they reach the "
       "store, as an overloaded or rate-limiting store does. Clients are expected to back off and "
       "retry; this finds code that gives up at once, retries without backoff, or mistakes the "
       "error for a missing object. `code` picks another throttling code (SlowDownRead, "
       "SlowDownWrite).",
       {"error {code} p={p}"},
       {{"p", "50%", "share of requests answered with the error"},
        {"code", "SlowDown", "the S3 error code"}}},
      {"short-body",
       "Cuts GetObject bodies at a fraction of their length (default 50%) and rewrites "
       "Content-Length to match, so the short body looks complete on the wire. Only a reader that "
       "compares the bytes it got with the total of Content-Range, or checks a checksum, notices: "
       "the silent-truncation class that a short body under an honest Content-Length (a "
       "transport error) does not exercise.",
       {"truncate {at} mode=consistent op=GetObject"},
       {{"at", "50%", "where to cut: a fraction like 50% or a size like 1MiB"}}},
      {"flaky-connection",
       "Resets the connection (TCP RST) after the first 1MiB of the body on a share of GetObject "
       "responses (default 20%), like a flaky network or a store restarting mid-transfer. Readers "
       "must retry, ideally resuming with a Range from where they stopped, and must never hand "
       "the partial body on as the object.",
       {"reset-after {bytes} op=GetObject p={p}"},
       {{"bytes", "1MiB",
         "body bytes sent before the reset: a size like 1MiB or a fraction like 50%"},
        {"p", "20%", "share of GetObject responses reset"}}},
      {"no-content-range",
       "Removes Content-Range from GetObject responses (ranged and partNumber reads alike). "
       "Readers that learn the object's total size from the /TOTAL of Content-Range lose it and "
       "must fall back to a HEAD, or fail loudly, rather than guess.",
       {"strip-header content-range op=GetObject"},
       {}},
      {"parts-count-low",
       "Sets x-amz-mp-parts-count to 1 (or `value`) on GetObject and HeadObject requests that "
       "name a partNumber: the store claims fewer parts than the object has. A reader that trusts "
       "the count stops early; one that checks the bytes it read against the total of "
       "Content-Range notices the gap.",
       {"set-header x-amz-mp-parts-count {value} op=GetObject,HeadObject query=partNumber"},
       {{"value", "1", "the part count to claim"}}},
      {"internal-error-once",
       "Answers the first GetObject of every object with 500 InternalError and lets the retries "
       "through. A client with a sane retry policy never notices; one without retries fails on "
       "every object.",
       {"error InternalError op=GetObject first=1 per-key"},
       {}},
      {"slow-first-byte",
       "Holds GetObject responses for 2s (or `duration`) before their first byte, like a store "
       "fetching from cold storage or a busy disk. It finds first-byte and read timeouts that are "
       "too tight, and parallel readers that pile up retries.",
       {"first-byte-delay {duration} op=GetObject"},
       {{"duration", "2s", "how long the first byte is held"}}},
      {"slow-body",
       "Sends GetObject bodies at 1MiB/s (or `rate`), for readers' throughput timeouts, progress "
       "reporting and the cost of reading many objects in parallel over a slow link.",
       {"throttle {rate} op=GetObject"},
       {{"rate", "1MiB/s", "bytes per second"}}},
      {"bit-rot",
       "Flips the bits of one random byte of every GetObject body without changing its length. "
       "Only a checksum catches it: the ETag of a single-part object, or x-amz-checksum-* when "
       "the reader asks for checksums.",
       {"corrupt count=1 op=GetObject"},
       {}},
  };
  return all;
}

const preset* find_preset(std::string_view name) {
  const auto& all = presets();
  const auto found =
      std::find_if(all.begin(), all.end(), [&](const preset& p) { return p.name == name; });
  return found == all.end() ? nullptr : &*found;
}

const std::vector<preset_parameter>& common_preset_parameters() {
  static const std::vector<preset_parameter> common = {
      {"p", "", "probability of injecting, like 30% or 0.3"},
      {"bucket", "", "only buckets matching this glob"},
      {"key", "", "only keys matching this glob, like *.parquet"},
      {"name", "", "the rule's name (to use a preset twice)"},
  };
  return common;
}

std::string preset_origin(std::string_view text, std::size_t number) {
  return "--preset " + std::to_string(number) + " ('" + std::string(text) + "')";
}

std::optional<std::vector<json>> expand_preset(std::string_view text, error_list& errors) {
  const std::size_t colon = text.find(':');
  const std::string_view name = text.substr(0, colon);
  const preset* found = find_preset(name);
  if (found == nullptr) {
    std::vector<std::string_view> known;
    for (const auto& p : presets()) {
      known.push_back(p.name);
    }
    errors.push_back("unknown preset '" + std::string(name) + "' " +
                     nearest_and_known(name, known));
    return std::nullopt;
  }
  // Defaults first, then what the text gives.
  std::map<std::string, std::string, std::less<>> values;
  std::vector<std::string_view> allowed;
  for (const auto& parameter : found->parameters) {
    allowed.push_back(parameter.name);
    if (!parameter.default_value.empty()) {
      values[std::string(parameter.name)] = parameter.default_value;
    }
  }
  for (const auto& parameter : common_preset_parameters()) {
    if (std::find(allowed.begin(), allowed.end(), parameter.name) == allowed.end()) {
      allowed.push_back(parameter.name);
    }
  }
  const std::size_t errors_before = errors.size();
  std::vector<std::string> given;
  std::string_view rest = colon == std::string_view::npos ? "" : text.substr(colon + 1);
  while (!rest.empty()) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? "" : rest.substr(comma + 1);
    const std::size_t equals = item.find('=');
    if (equals == std::string_view::npos || equals == 0) {
      errors.push_back("expected key=value, got '" + std::string(item) + "'");
      continue;
    }
    const std::string key(item.substr(0, equals));
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      errors.push_back("unknown parameter '" + key + "' of preset '" + std::string(name) + "' " +
                       nearest_and_known(key, allowed, "allowed"));
      continue;
    }
    if (std::find(given.begin(), given.end(), key) != given.end()) {
      errors.push_back("'" + key + "' given twice");
      continue;
    }
    given.push_back(key);
    values[key] = std::string(item.substr(equals + 1));
  }
  if (errors.size() != errors_before) {
    return std::nullopt;
  }
  std::vector<json> rules;
  for (std::size_t i = 0; i < found->specs.size(); ++i) {
    const std::string_view spec = found->specs[i];
    std::string filled = fill_placeholders(spec, values);
    // Common parameters the spec does not place itself.
    for (const std::string_view common : {"p", "bucket", "key"}) {
      const auto value = values.find(common);
      const std::string placeholder = "{" + std::string(common) + "}";
      if (value != values.end() && spec.find(placeholder) == std::string_view::npos) {
        filled += " " + std::string(common) + "=" + spec_word(value->second);
      }
    }
    auto rule = fault_spec_to_json(filled, errors);
    if (!rule) {
      return std::nullopt;
    }
    const auto chosen = values.find("name");
    std::string rule_name = chosen != values.end() ? chosen->second : std::string(name);
    if (found->specs.size() > 1) {
      rule_name += "-" + std::to_string(i + 1);
    }
    (*rule)["name"] = rule_name;
    rules.push_back(std::move(*rule));
  }
  return rules;
}

} // namespace s3fault::faults::config
