#include "faults/actions/action_params.hpp"

#include "faults/values.hpp"
#include "text/quantities.hpp"
#include "text/text.hpp"

#include <algorithm>
#include <array>

namespace s3fault::faults::actions {
namespace {

const nlohmann::json& empty_object() {
  static const nlohmann::json empty = nlohmann::json::object();
  return empty;
}

template <class Names> std::string joined(const Names& names) {
  std::string out;
  for (const auto name : names) {
    if (!out.empty()) {
      out += ", ";
    }
    out += name;
  }
  return out;
}

bool is_token_char(char c) {
  if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
    return true;
  }
  return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

} // namespace

param_reader::param_reader(std::string_view type, const nlohmann::json& params, error_list& errors,
                           std::span<const std::string_view> accepted)
    : params_(params.is_object() ? params : empty_object()), errors_(errors),
      errors_before_(errors.size()), is_object_(params.is_object()) {
  if (!is_object_) {
    if (!params.is_null()) {
      errors_.push_back("parameters: must be an object (got " + describe_got(params) + ")");
    }
    return;
  }
  for (const auto& [name, value] : params_.items()) {
    if (name == "type" ||
        std::find(accepted.begin(), accepted.end(), std::string_view(name)) != accepted.end()) {
      continue;
    }
    const std::string takes = accepted.empty() ? std::string(type) + " takes no parameters"
                                               : std::string(type) + " takes " + joined(accepted);
    errors_.push_back(name + ": unknown parameter (" + takes + ")");
  }
}

const nlohmann::json* param_reader::field(std::string_view name) const {
  const auto found = params_.find(name);
  return found == params_.end() ? nullptr : &*found;
}

const nlohmann::json* param_reader::lookup(std::string_view name, need presence,
                                           std::string_view what) {
  const nlohmann::json* value = field(name);
  if (value == nullptr && presence == need::required) {
    fail(name, "missing (must be " + std::string(what) + ")");
  }
  return value;
}

void param_reader::fail(std::string_view name, std::string_view problem) {
  errors_.push_back(std::string(name) + ": " + std::string(problem));
}

void param_reader::reject(std::string_view name, std::string_view what) {
  const nlohmann::json* value = field(name);
  errors_.push_back(must_be(name, what, value != nullptr ? *value : nlohmann::json()));
}

std::optional<std::uint64_t> param_reader::size(std::string_view name, need presence) {
  const nlohmann::json* value = lookup(name, presence, size_example);
  if (value == nullptr) {
    return std::nullopt;
  }
  auto parsed = parse_size(*value);
  if (!parsed) {
    reject(name, size_example);
  }
  return parsed;
}

std::optional<clock::duration> param_reader::duration(std::string_view name, need presence) {
  const nlohmann::json* value = lookup(name, presence, duration_example);
  if (value == nullptr) {
    return std::nullopt;
  }
  const auto parsed = parse_duration(*value);
  if (!parsed) {
    reject(name, duration_example);
    return std::nullopt;
  }
  return std::chrono::duration_cast<clock::duration>(*parsed);
}

std::optional<std::uint64_t> param_reader::rate(std::string_view name, need presence) {
  const nlohmann::json* value = lookup(name, presence, rate_example);
  if (value == nullptr) {
    return std::nullopt;
  }
  auto parsed = parse_rate(*value);
  if (!parsed) {
    reject(name, rate_example);
  }
  return parsed;
}

std::optional<size_or_fraction> param_reader::offset_or_fraction(std::string_view name,
                                                                 need presence) {
  const std::string what = std::string(size_example) + " or " + std::string(fraction_example);
  const nlohmann::json* value = lookup(name, presence, what);
  if (value == nullptr) {
    return std::nullopt;
  }
  auto parsed = parse_size_or_fraction(*value);
  if (!parsed) {
    reject(name, what);
  }
  return parsed;
}

std::optional<std::uint64_t> param_reader::whole_number(std::string_view name, need presence,
                                                        std::uint64_t min, std::uint64_t max,
                                                        std::string_view what) {
  const nlohmann::json* value = lookup(name, presence, what);
  if (value == nullptr) {
    return std::nullopt;
  }
  const auto parsed = faults::whole_number(*value);
  if (!parsed || *parsed < min || *parsed > max) {
    reject(name, what);
    return std::nullopt;
  }
  return parsed;
}

std::optional<std::string> param_reader::text(std::string_view name, need presence,
                                              std::string_view what) {
  const nlohmann::json* value = lookup(name, presence, what);
  if (value == nullptr) {
    return std::nullopt;
  }
  if (value->is_string()) {
    return value->get<std::string>();
  }
  if (value->is_number() || value->is_boolean()) {
    return value->dump();
  }
  reject(name, what);
  return std::nullopt;
}

std::optional<std::string> param_reader::choice(std::string_view name, need presence,
                                                std::initializer_list<std::string_view> choices) {
  const std::string what = "one of " + joined(choices);
  const nlohmann::json* value = lookup(name, presence, what);
  if (value == nullptr) {
    return std::nullopt;
  }
  if (value->is_string()) {
    const auto& chosen = value->get_ref<const std::string&>();
    if (std::find(choices.begin(), choices.end(), std::string_view(chosen)) != choices.end()) {
      return chosen;
    }
  }
  reject(name, what);
  return std::nullopt;
}

std::optional<std::vector<std::uint64_t>> param_reader::size_list(std::string_view name,
                                                                  need presence) {
  constexpr std::string_view what = "a list of sizes like [0, 1MiB] or \"0,1MiB\"";
  const nlohmann::json* value = lookup(name, presence, what);
  if (value == nullptr) {
    return std::nullopt;
  }
  std::vector<std::uint64_t> sizes;
  bool valid = true;
  if (value->is_array()) {
    for (const auto& entry : *value) {
      const auto parsed = parse_size(entry);
      valid = valid && parsed.has_value();
      if (parsed) {
        sizes.push_back(*parsed);
      }
    }
  } else if (value->is_string()) {
    std::string_view rest = value->get_ref<const std::string&>();
    while (valid) {
      const std::size_t comma = rest.find(',');
      const auto parsed = text::parse_size(rest.substr(0, comma));
      valid = parsed.has_value();
      if (parsed) {
        sizes.push_back(*parsed);
      }
      if (comma == std::string_view::npos) {
        break;
      }
      rest.remove_prefix(comma + 1);
    }
  } else if (const auto parsed = parse_size(*value)) {
    sizes.push_back(*parsed);
  } else {
    valid = false;
  }
  if (!valid || sizes.empty()) {
    reject(name, what);
    return std::nullopt;
  }
  return sizes;
}

bool is_header_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), is_token_char);
}

bool is_header_value(std::string_view value) {
  return std::none_of(value.begin(), value.end(), [](char c) {
    const auto byte = static_cast<unsigned char>(c);
    return (byte < 0x20 && c != '\t') || byte == 0x7F;
  });
}

std::optional<std::string> framing_field_problem(std::string_view name) {
  constexpr std::array<std::string_view, 2> body_framing = {"content-length", "transfer-encoding"};
  constexpr std::array<std::string_view, 5> hop_by_hop = {"connection", "keep-alive",
                                                          "proxy-connection", "te", "upgrade"};
  for (const auto field : body_framing) {
    if (text::iequal(name, field)) {
      return std::string(field) +
             " frames the body, and a changed one desynchronises the connection (the client "
             "waits for bytes that never come, or reads the next response as body); use "
             "truncate (mode=consistent for a short body that looks complete, mode=close for a "
             "short read)";
    }
  }
  for (const auto field : hop_by_hop) {
    if (text::iequal(name, field)) {
      return std::string(field) +
             " is hop-by-hop: the proxy sets it for each connection and never forwards it";
    }
  }
  return std::nullopt;
}

std::optional<std::string> read_editable_header_name(param_reader& params, std::string_view field,
                                                     header_side side) {
  auto name = params.text(field, need::required, header_name_example);
  if (!name) {
    return std::nullopt;
  }
  if (!is_header_name(*name)) {
    params.reject(field, header_name_example);
    return std::nullopt;
  }
  if (const auto problem = framing_field_problem(*name)) {
    params.fail(field, *problem);
    return std::nullopt;
  }
  if (side == header_side::request && text::iequal(*name, "authorization")) {
    params.fail(field, "authorization carries the request's signature: use the resign action to "
                       "sign the request with the proxy's keys");
    return std::nullopt;
  }
  return name;
}

std::optional<std::string> read_query_name(param_reader& params, std::string_view field) {
  constexpr std::string_view what = "a query parameter name like partNumber";
  auto name = params.text(field, need::required, what);
  if (name && (name->empty() || name->find_first_of("&=") != std::string::npos)) {
    params.reject(field, what);
    return std::nullopt;
  }
  return name;
}

std::optional<std::string> read_header_value(param_reader& params, std::string_view field) {
  auto value = params.text(field, need::required, "a header value");
  if (value && !is_header_value(*value)) {
    params.reject(field, "a header value without control characters");
    return std::nullopt;
  }
  return value;
}

} // namespace s3fault::faults::actions
