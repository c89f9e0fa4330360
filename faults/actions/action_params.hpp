#pragma once
// Reading one action's parameters from its JSON object (docs/design.md rule 3): every field is
// checked, every problem is appended as "field: what is wrong (what is allowed)", and the
// action is built only when none was found.
#include "faults/action_registry.hpp"
#include "faults/values.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace s3fault::faults::actions {

enum class need { required, optional };

/// Typed access to the parameters of one action. The constructor reports parameters the action
/// does not take; each getter reports a missing required field or a bad value and returns
/// nullopt, so a parse function reads every field and then checks ok() once.
class param_reader {
public:
  /// `accepted`: every parameter `type` takes ("type" itself is always allowed and ignored).
  param_reader(std::string_view type, const nlohmann::json& params, error_list& errors,
               std::span<const std::string_view> accepted);

  /// The raw value, or nullptr when absent.
  const nlohmann::json* field(std::string_view name) const;
  bool has(std::string_view name) const { return field(name) != nullptr; }

  std::optional<std::uint64_t> size(std::string_view name, need presence);
  std::optional<clock::duration> duration(std::string_view name, need presence);
  std::optional<std::uint64_t> rate(std::string_view name, need presence);
  std::optional<size_or_fraction> offset_or_fraction(std::string_view name, need presence);
  /// A whole number in [min, max] by the one rule (faults::whole_number: a JSON number with a
  /// whole value, or digits in text); `what` describes it for messages ("an HTTP status from 100
  /// to 599").
  std::optional<std::uint64_t> whole_number(std::string_view name, need presence, std::uint64_t min,
                                            std::uint64_t max, std::string_view what);
  /// Text; numbers and booleans are taken as the text they were written as (an unquoted `3` in
  /// the one-line syntax arrives as a number). `what` describes it for messages.
  std::optional<std::string> text(std::string_view name, need presence, std::string_view what);
  /// One of `choices`.
  std::optional<std::string> choice(std::string_view name, need presence,
                                    std::initializer_list<std::string_view> choices);
  /// A list of sizes: a JSON array, a single size, or text with comma-separated sizes.
  std::optional<std::vector<std::uint64_t>> size_list(std::string_view name, need presence);

  /// Appends "NAME: PROBLEM".
  void fail(std::string_view name, std::string_view problem);
  /// Appends "NAME: must be WHAT (got VALUE)" for the field's value.
  void reject(std::string_view name, std::string_view what);

  /// True when this reader appended no error.
  bool ok() const { return errors_.size() == errors_before_; }

private:
  /// The field, or nullptr; a missing required field is reported as needing `what`.
  const nlohmann::json* lookup(std::string_view name, need presence, std::string_view what);

  const nlohmann::json& params_;
  error_list& errors_;
  std::size_t errors_before_;
  bool is_object_ = false;
};

inline constexpr std::string_view header_name_example = "a header name like x-amz-mp-parts-count";

/// True for a valid HTTP field name (an RFC 9110 token).
bool is_header_name(std::string_view name);
/// True for a field value without CR, LF, NUL or other control characters (tabs allowed).
bool is_header_value(std::string_view value);
/// Why a header action may not touch the field `name`, or nullopt when it may: the fields that
/// frame the body (Content-Length, Transfer-Encoding) and the hop-by-hop ones the proxy sets
/// per connection. Editing them would leave the client unable to tell where the body ends.
std::optional<std::string> framing_field_problem(std::string_view name);

enum class header_side { request, response };
/// Reads the parameter `field` as the name of a header an action may edit: a valid field name
/// and not one that frames the body (framing_field_problem); on the request side not
/// Authorization either, which the `resign` action renews. nullopt (with the error appended)
/// otherwise.
std::optional<std::string> read_editable_header_name(param_reader& params, std::string_view field,
                                                     header_side side);
/// Reads the parameter `field` as a query parameter name (not empty, no '&' or '=').
std::optional<std::string> read_query_name(param_reader& params, std::string_view field);
/// Reads the parameter `field` as a header value (no control characters but tabs).
std::optional<std::string> read_header_value(param_reader& params, std::string_view field);

} // namespace s3fault::faults::actions
