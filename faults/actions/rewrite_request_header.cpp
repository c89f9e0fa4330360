// rewrite-request-header: replace the first match of a pattern in a request header's value
// before the store sees it, e.g. `Range: bytes=-N` read as `bytes=0-N` (s3rver 3.7).
#include "faults/action_registry.hpp"
#include "faults/actions/action_params.hpp"
#include "faults/header_regex.hpp"

#include <array>

namespace s3fault::faults::actions {
namespace {

class rewrite_request_header_action final : public fault_action {
public:
  rewrite_request_header_action(std::string name, std::string pattern,
                                std::shared_ptr<const header_regex> regex, std::string replacement)
      : name_(std::move(name)), pattern_(std::move(pattern)), regex_(std::move(regex)),
        replacement_(std::move(replacement)) {}

  std::string_view type() const override { return "rewrite-request-header"; }
  action_phase phase() const override { return action_phase::request_head; }
  nlohmann::json to_json() const override {
    return {
        {"type", type()}, {"name", name_}, {"pattern", pattern_}, {"replacement", replacement_}};
  }

  bool apply_to_request(request_head& head) const override {
    const auto value = head.header(name_);
    if (!value) {
      return false;
    }
    const auto rewritten = regex_->replace_first(*value, replacement_);
    return rewritten && head.set_header(name_, *rewritten);
  }

private:
  std::string name_;
  std::string pattern_;
  std::shared_ptr<const header_regex> regex_;
  std::string replacement_;
};

constexpr std::array<std::string_view, 3> rewrite_request_header_parameters = {"name", "pattern",
                                                                               "replacement"};

std::shared_ptr<const fault_action> parse_rewrite_request_header(const nlohmann::json& json,
                                                                 error_list& errors) {
  param_reader params("rewrite-request-header", json, errors, rewrite_request_header_parameters);
  const auto name = read_editable_header_name(params, "name", header_side::request);
  const auto pattern = params.text("pattern", need::required, "an RE2 pattern");
  const auto replacement = read_header_value(params, "replacement");
  std::shared_ptr<const header_regex> regex;
  if (pattern) {
    std::string problem;
    regex = header_regex::compile(*pattern, problem);
    if (!regex) {
      params.fail("pattern", "regex '" + *pattern + "' " + problem);
    }
  }
  if (regex && replacement) {
    if (const auto problem = regex->rewrite_problem(*replacement)) {
      params.fail("replacement", *problem);
    }
  }
  if (!params.ok()) {
    return nullptr;
  }
  return std::make_shared<rewrite_request_header_action>(*name, *pattern, std::move(regex),
                                                         *replacement);
}

} // namespace

action_kind rewrite_request_header_kind() {
  return {"rewrite-request-header",
          action_phase::request_head,
          "replace the first match of an RE2 pattern (case-insensitive) in a request header's "
          "value, \\1..\\9 naming its groups, before the store sees the request; counted only "
          "when it matched",
          {"name", "pattern", "replacement"},
          parse_rewrite_request_header,
          {rewrite_request_header_parameters.begin(), rewrite_request_header_parameters.end()},
          "rewrite-request-header Range '^bytes=-([0-9]+)$' 'bytes=0-\\1'"};
}

} // namespace s3fault::faults::actions
