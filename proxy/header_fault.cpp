#include "proxy/header_fault.hpp"

#include "faults/config/fault_spec.hpp"
#include "faults/config/rule_parser.hpp"
#include "proxy/request_edits.hpp"

#include <fmt/format.h>

namespace s3fault::proxy {
namespace {

header_fault refused(std::string why) {
  return {nullptr, "s3fault: x-s3fault-fault: " + std::move(why)};
}

std::string joined(const faults::error_list& errors) {
  std::string out;
  for (const auto& error : errors) {
    out += (out.empty() ? "" : "; ") + error;
  }
  return out;
}

/// The one rule of a spec, as a rule set of its own; or why not.
header_fault rules_of(std::string_view spec, std::uint64_t seed) {
  faults::error_list errors;
  auto rule = faults::config::fault_spec_to_json(spec, errors);
  if (!rule) {
    return refused(joined(errors));
  }
  if (!rule->contains("name")) {
    (*rule)["name"] = std::string(header_fault_field);
  }
  auto built = faults::config::parse_rule_document(nlohmann::json::array({*rule}), "the field");
  if (!built.ok()) {
    return refused(joined(built.errors));
  }
  return {
      std::make_shared<const faults::rule_set>(std::move(built.rules), seed, faults::clock::now()),
      ""};
}

} // namespace

std::optional<header_fault> take_header_fault(request_parser& request, bool allowed,
                                              std::uint64_t seed) {
  auto& fields = request.get();
  const boost::beast::string_view name(header_fault_field.data(), header_fault_field.size());
  const auto found = fields.find(name);
  if (found == fields.end()) {
    return std::nullopt;
  }
  if (!allowed) {
    return refused("this proxy takes no per-request faults (start it with "
                   "--allow-header-faults)");
  }
  if (fields.count(name) > 1) {
    return refused("give one per request");
  }
  // Removing a field the signature covers would make the store refuse the request.
  auto head = forwarded_request_head(request);
  head.remove_header(header_fault_field);
  if (edits_break_signature(head)) {
    return refused("the request's signature covers it (SignedHeaders), and the proxy removes it "
                   "before the store sees the request: add it after signing");
  }
  const std::string spec(found->value());
  fields.erase(name);
  return rules_of(spec, seed);
}

} // namespace s3fault::proxy
